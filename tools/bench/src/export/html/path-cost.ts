// The network stage's own CPU per cell: the rows of pathCostRows(), the same as results.md's table.
import { type Cell } from '../../model';
import { pathCostRows, pathCostTotal, pathCounterRows } from '../../analysis';
import {
  PATH_COST_FIRST_NUMBER,
  PATH_COST_HEADER,
  PATH_COST_HEADING,
  PATH_COST_NOTE,
  PATH_COUNTERS_FIRST_NUMBER,
  PATH_COUNTERS_HEADER,
  PATH_COUNTERS_HEADING,
  PATH_COUNTERS_NOTE,
  pathCostCells,
  pathCounterCells,
} from '../path-cost';
import { escapeHtml } from './escape';
import { el } from './svg';
import { renderTableSection } from './table-section';

/** The section, or '' when no cell crossed a delayer. */
export function renderPathCostSection(results: readonly Cell[]): string {
  const rows = pathCostRows(results);
  const total = pathCostTotal(rows);
  if (total === null) return '';
  const cells = (row: typeof total) => pathCostCells(row).map((cell, i) => el('td', i < PATH_COST_FIRST_NUMBER ? {} : { class: 'num' }, escapeHtml(cell)));
  const body = [
    ...rows.map((row) => el('tr', { 'data-network': row.network, 'data-variant': row.variant, 'data-case': row.case, 'data-transport': row.transport }, ...cells(row))),
    el('tr', { 'data-total': 'run' }, ...cells(total)),
  ];
  return renderTableSection({ id: 'path-cost', heading: PATH_COST_HEADING, header: PATH_COST_HEADER, body, note: PATH_COST_NOTE });
}

/** The path profile's counters per cell, or '' when no cell crossed a path profile's parts. */
export function renderPathCountersSection(results: readonly Cell[]): string {
  const rows = pathCounterRows(results);
  if (rows.length === 0) return '';
  const body = rows.map((row) =>
    el('tr', { 'data-network': row.network, 'data-variant': row.variant, 'data-case': row.case, 'data-transport': row.transport }, ...pathCounterCells(row).map((cell, i) => el('td', i < PATH_COUNTERS_FIRST_NUMBER ? {} : { class: 'num' }, escapeHtml(cell)))),
  );
  return renderTableSection({ id: 'path-counters', heading: PATH_COUNTERS_HEADING, header: PATH_COUNTERS_HEADER, body, note: PATH_COUNTERS_NOTE });
}
