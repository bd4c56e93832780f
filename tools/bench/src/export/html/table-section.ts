// A report section that is one table with a heading and a note (ablation, the stage's CPU).
import { escapeHtml } from './escape';
import { el } from './svg';

export interface TableSection {
  id: string;
  heading: string;
  header: readonly string[];
  /** Rendered <tr> rows. */
  body: readonly string[];
  note: string;
  tableClass?: string;
}

export function renderTableSection({ id, heading, header, body, note, tableClass }: TableSection): string {
  const table = el(
    'table',
    { ...(tableClass ? { class: tableClass } : {}), 'data-table': id },
    el('thead', {}, el('tr', {}, ...header.map((h) => el('th', { scope: 'col' }, escapeHtml(h))))),
    el('tbody', {}, ...body),
  );
  return el('section', { id, 'data-section': id }, el('h2', {}, escapeHtml(heading)), el('div', { class: 'table-wrap' }, table), el('p', { class: 'notes' }, escapeHtml(note)));
}
