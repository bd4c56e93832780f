// The blog-style table (the columns of markdown's renderTable) as HTML, with noise marks and footnotes.
import { type Cell, blogRatio, grpcOverJson, networkOf, placeLabels, runtimeOf, securityOf, NOISY_BELOW_MS, NOISY_CV, bytes, count, ms, ratio } from '../../model';
import { failedCellText } from '../../analysis';
import { NOISY_MARK, tableHeader, TABLE_HEADER } from '../markdown';
import { escapeHtml } from './escape';
import { el } from './svg';



/** Columns between transport and blog avg ms, which a failed row spans with its error. */
const MEASURED_COLUMNS = TABLE_HEADER.indexOf('blog avg ms') - TABLE_HEADER.indexOf('transport') - 1;


const num = (content: string, extra: Record<string, string | null> = {}) => el('td', { class: 'num', ...extra }, content);

function medianCell(r: Cell, note: number | null): string {
  const s = r.summary;
  const ci = s?.medianCi;
  const hover = s
    ? `n = ${s.n}; ` + (ci ? `${Math.round(ci.level * 100)}% CI of the median ${ms(ci.low)} – ${ms(ci.high)} ms` : 'too few samples for a CI of the median')
    : null;
  const mark =
    note === null ? '' : `<a class="noisy" href="#noise-${note}" title="noisy: ${escapeHtml(s?.noise.join(', ') ?? '')}">${escapeHtml(NOISY_MARK)}<sup>${note}</sup></a>`;
  return num(`${mark}${escapeHtml(ms(s?.median))}`, { title: hover });
}

/** The table and its footnotes; one body row per result, in document order. */
export function renderResultsTable(results: readonly Cell[]): string {
  const notes: string[] = [];
  const seen = new Set<string>();
  const rows = results.map((r) => {
    const key = `${networkOf(r)}\u0000${runtimeOf(r)}\u0000${securityOf(r)}\u0000${r.variant}\u0000${r.case}`;
    const first = !seen.has(key);
    seen.add(key);
    const s = r.summary;
    let note: number | null = null;
    if (r.ok && s?.noisy) {
      notes.push(
        el('li', { id: `noise-${notes.length + 1}` }, `${escapeHtml(r.case)} ${escapeHtml(r.transport)}: ${escapeHtml(s.noise.join('; ') || 'flagged noisy')}`),
      );
      note = notes.length;
    }
    const measured = r.ok
      ? [
          medianCell(r, note),
          num(escapeHtml(ms(s?.mean))),
          num(escapeHtml(ms(s?.min))),
          num(escapeHtml(ms(s?.p95))),
          num(escapeHtml(ms(s?.max))),
          num(escapeHtml(ms(s?.stddev))),
          num(s ? escapeHtml(`${(s.cv * 100).toFixed(1)}%`) : '—'),
          num(escapeHtml(s?.medianCi ? `${ms(s.medianCi.low)}–${ms(s.medianCi.high)}` : '—'), {
            title: s?.medianCi ? `exact coverage ${(s.medianCi.coverage * 100).toFixed(1)}%` : s ? `no interval with n = ${s.n} (needs at least 6)` : null,
          }),
          num(escapeHtml(ms(r.coldMs))),
          num(escapeHtml(bytes(r.bytes)), { title: r.bytes === null ? null : `${count(r.bytes)} B` }),
        ]
      : [el('td', { colspan: String(MEASURED_COLUMNS), class: 'failed' }, `<strong>FAILED</strong>: ${escapeHtml(failedCellText(r))}`)];
    return el(
      'tr',
      { 'data-case': r.case, 'data-transport': r.transport, 'data-variant': r.variant, 'data-network': networkOf(r), 'data-runtime': runtimeOf(r), 'data-security': securityOf(r), 'data-ok': String(r.ok), class: first ? 'case-start' : null },
      ...placeLabels(results, r).map((label) => el('td', {}, escapeHtml(label))),
      el('td', {}, escapeHtml(r.variant)),
      el('th', { scope: 'row' }, escapeHtml(r.case)),
      num(escapeHtml(count(r.rows))),
      num(escapeHtml(count(r.requests))),
      el('td', { class: `transport t-${r.transport}` }, escapeHtml(r.transport)),
      ...measured,
      num(escapeHtml(ms(r.blogMs))),
      num(first ? escapeHtml(ratio(grpcOverJson(results, r.case, r.variant, networkOf(r), runtimeOf(r), securityOf(r)))) : ''),
      num(first ? escapeHtml(ratio(blogRatio(results, r.case))) : ''),
    );
  });
  const header = tableHeader(results);
  const labels = header.length - TABLE_HEADER.length + 5;
  const head = el('thead', {}, el('tr', {}, ...header.map((h, i) => el('th', { scope: 'col', class: i < labels ? null : 'num' }, escapeHtml(h)))));
  const table = el('table', { class: 'results', 'data-table': 'results' }, head, el('tbody', {}, ...rows));
  const footnotes =
    notes.length > 0
      ? el(
          'div',
          { class: 'notes' },
          el('p', {}, `<span class="noisy">${escapeHtml(NOISY_MARK)}</span> noisy cell: read its digits with care (flagged when the coefficient of variation is above ${NOISY_CV * 100}% or the median is under ${NOISY_BELOW_MS} ms).`),
          el('ol', {}, ...notes),
        )
      : '';
  return el('div', { class: 'table-wrap' }, table) + footnotes;
}
