// Every cell's modes, kernel TCP counters and disturbed visits: the rows of results.md's table, and the two-mode cells' notes.
import { type Cell } from '../../model';
import { tcpCounterRows } from '../../analysis';
import { CELL_COUNTERS_FIRST_NUMBER, CELL_COUNTERS_HEADER, CELL_COUNTERS_HEADING, CELL_COUNTERS_NOTE, cellCounterCells, modeNotes } from '../cell-counters';
import { escapeHtml } from './escape';
import { el } from './svg';
import { renderTableSection } from './table-section';

/** The section, or '' for a run without cells. */
export function renderCellCountersSection(results: readonly Cell[]): string {
  const rows = tcpCounterRows(results);
  if (rows.length === 0) return '';
  const body = rows.map((row) =>
    el(
      'tr',
      { 'data-network': row.network, 'data-variant': row.variant, 'data-case': row.case, 'data-transport': row.transport, 'data-ok': String(row.ok), 'data-modes': String(row.modes?.groups.length ?? 0), 'data-disturbed': String(row.visits?.disturbed ?? 0) },
      ...cellCounterCells(row).map((cell, i) => el('td', i < CELL_COUNTERS_FIRST_NUMBER ? {} : { class: 'num' }, escapeHtml(cell))),
    ),
  );
  const notes = modeNotes(results);
  const section = renderTableSection({ id: 'cell-counters', heading: CELL_COUNTERS_HEADING, header: CELL_COUNTERS_HEADER, body, note: CELL_COUNTERS_NOTE });
  return notes.length === 0 ? section : section.replace(/<\/section>$/, `${el('ul', { class: 'notes', 'data-mode-notes': '' }, ...notes.map((n) => el('li', {}, escapeHtml(n))))}</section>`);
}
