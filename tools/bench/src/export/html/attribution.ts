// The attribution section (issue #23): the rows of attribution(), the same as results.md's table.
import { type Cell } from '../../model';
import { attribution } from '../../analysis';
import { attributionCells, attributionHeader, attributionNote, describeWindows } from '../attribution';
import { escapeHtml } from './escape';
import { el } from './svg';

/** The section, or '' when the run measured none of the decomposition's transports. */
export function renderAttributionSection(results: readonly Cell[]): string {
  const a = attribution(results);
  if (a.rows.length === 0) return '';
  const header = attributionHeader(a);
  const windows = describeWindows(results);
  const firstFactor = header.length - a.rows[0].factors.length;
  const rows = a.rows.map((row) =>
    el(
      'tr',
      { 'data-case': row.case, 'data-variant': row.variant, 'data-network': row.network },
      ...attributionCells(a, row).map((cell, i) => (i < firstFactor ? el('th', { scope: 'row' }, escapeHtml(cell)) : el('td', { class: 'num' }, escapeHtml(cell)))),
    ),
  );
  return el(
    'section',
    { id: 'attribution', 'data-section': 'attribution' },
    el('h2', {}, 'Why, decomposed: protocol × codec × library'),
    el(
      'div',
      { class: 'table-wrap' },
      el(
        'table',
        { class: 'attribution', 'data-table': 'attribution' },
        el('thead', {}, el('tr', {}, ...header.map((h) => el('th', { scope: 'col' }, escapeHtml(h))))),
        el('tbody', {}, ...rows),
      ),
    ),
    el('p', { class: 'notes' }, escapeHtml(attributionNote(a))),
    windows.length > 0 ? el('p', { class: 'notes', 'data-windows': '' }, escapeHtml(`HTTP/2 receive windows, read back from each client session: ${windows.join('; ')}.`)) : '',
  );
}
