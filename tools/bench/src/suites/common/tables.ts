// A table as data (header + rows of already formatted cells), rendered for Markdown or HTML.
import { escapeHtml, el } from '../../export';

export interface Table {
  header: readonly string[];
  /** Which columns hold numbers (right-aligned). */
  numeric: readonly boolean[];
  rows: ReadonlyArray<readonly string[]>;
}

export function markdownTable(table: Table): string {
  const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(table.header), line(table.numeric.map((n) => (n ? '---:' : '---'))), ...table.rows.map(line)].join('\n');
}

export function htmlTable(table: Table, attributes: Record<string, string> = {}): string {
  const cell = (tag: 'th' | 'td', content: string, i: number) => el(tag, table.numeric[i] ? { class: 'num' } : {}, escapeHtml(content));
  return el(
    'div',
    { class: 'table-wrap' },
    el(
      'table',
      { class: 'results', ...attributes },
      el('thead', {}, el('tr', {}, ...table.header.map((h, i) => cell('th', h, i)))),
      el('tbody', {}, ...table.rows.map((row) => el('tr', {}, ...row.map((c, i) => cell('td', c, i))))),
    ),
  );
}
