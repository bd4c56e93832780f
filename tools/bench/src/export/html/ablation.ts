// The ablation section (issue #18): the rows of ablation(), the same as results.md's table.
import { type Cell } from '../../model';
import { ablation } from '../../analysis';
import { ABLATION_HEADING, ABLATION_NOTE, ablationCells, ablationHeader } from '../ablation';
import { escapeHtml } from './escape';
import { el } from './svg';
import { renderTableSection } from './table-section';

/** The section, or '' when the run has no ablation variants. */
export function renderAblationSection(results: readonly Cell[]): string {
  const rows = ablation(results);
  if (rows.length === 0) return '';
  const header = ablationHeader(rows);
  const firstNumber = header.indexOf('with ms');
  const body = rows.map((row) =>
    el(
      'tr',
      { 'data-tuning': row.tuning, 'data-base': row.base, 'data-case': row.case, 'data-transport': row.transport, 'data-effect': row.effect },
      ...ablationCells(rows, row).map((cell, i) =>
        i < firstNumber ? el(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row' } : {}, escapeHtml(cell)) : el('td', { class: 'num' }, escapeHtml(cell)),
      ),
    ),
  );
  return renderTableSection({ id: 'ablation', heading: ABLATION_HEADING, header, body, note: ABLATION_NOTE, tableClass: 'ablation' });
}
