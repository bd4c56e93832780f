// The verdict section the report opens with: the verdict table (rows from export/verdict.ts, the same
// as results.md's) and its one chart.
import { type Cell } from '../../model';
import { verdict } from '../../analysis';
import { VERDICT_NOTE, verdictCells, verdictHeader } from '../verdict';
import { shade } from './decision-map';
import { escapeHtml } from './escape';
import { el } from './svg';
import { renderVerdictChart } from './verdict-chart';

export function renderVerdictSection(results: readonly Cell[]): string {
  const v = verdict(results);
  const header = verdictHeader(v);
  const winnerColumn = header.indexOf('winner');
  const rows = v.rows.map((row) =>
    el(
      'tr',
      { 'data-case': row.case, 'data-variant': row.variant, 'data-network': row.network, 'data-runtime': row.runtime, 'data-security': row.security, 'data-winner': row.cell.winner ?? 'none' },
      ...verdictCells(v, row).map((cell, i) =>
        i === winnerColumn
          ? el('td', { style: shade(row.cell), class: 'winner' }, escapeHtml(cell))
          : el(i < winnerColumn ? 'th' : 'td', i < winnerColumn ? { scope: 'row' } : { class: i === header.length - 1 ? 'why' : 'num' }, escapeHtml(cell)),
      ),
    ),
  );
  const table = el(
    'div',
    { class: 'table-wrap' },
    el(
      'table',
      { class: 'verdict', 'data-table': 'verdict' },
      el('thead', {}, el('tr', {}, ...header.map((h) => el('th', { scope: 'col' }, escapeHtml(h))))),
      el('tbody', {}, ...rows),
    ),
  );
  return el(
    'section',
    { id: 'verdict', 'data-section': 'verdict' },
    el('h2', {}, 'Verdict: who wins, by how much, and why'),
    table,
    el('p', { class: 'notes' }, escapeHtml(VERDICT_NOTE)),
    el('figure', { class: 'chart wide' }, renderVerdictChart(v)),
  );
}
