// The variants side by side as an HTML table: the rows of breakdown.ts's variantRatios, which the
// Markdown report's table shows too.
import { type Cell, ms, ratio } from '../../model';
import { variantRatios } from '../../analysis';
import { escapeHtml } from './escape';
import { el } from './svg';

const num = (content: string, extra: Record<string, string | null> = {}) => el('td', { class: 'num', ...extra }, escapeHtml(content));

/** Medians per variant and their ratios, one row per case × transport; empty with fewer than two variants. */
export function renderVariantsTable(results: readonly Cell[]): string {
  const table = variantRatios(results);
  if (!table) return '';
  const { variants, pairs } = table;
  const byNetwork = table.networks.length > 1;
  const labels = byNetwork ? 3 : 2;
  const header = [
    ...(byNetwork ? ['network'] : []),
    'case',
    'transport',
    ...variants.map((v) => `${v} median ms`),
    ...pairs.map(([a, b]) => `${a} ÷ ${b}`),
  ];
  const head = el('thead', {}, el('tr', {}, ...header.map((h, i) => el('th', { scope: 'col', class: i < labels ? null : 'num' }, escapeHtml(h)))));
  let previous: string | null = null;
  const rows = table.rows.map((row) => {
    const first = `${row.network} ${row.case}` !== previous;
    previous = `${row.network} ${row.case}`;
    const of = (v: string) => row.medians[variants.indexOf(v)];
    return el(
      'tr',
      { 'data-network': row.network, 'data-case': row.case, 'data-transport': row.transport, class: first ? 'case-start' : null },
      ...(byNetwork ? [el('td', {}, escapeHtml(row.network))] : []),
      el('th', { scope: 'row' }, escapeHtml(row.case)),
      el('td', { class: `transport t-${row.transport}` }, escapeHtml(row.transport)),
      ...row.medians.map((m, i) =>
        num(ms(m), { 'data-variant': variants[i], title: m === null ? `${variants[i]} ${row.transport}: failed or not run` : null }),
      ),
      ...row.ratios.map((r, i) => {
        const [a, b] = pairs[i];
        return num(ratio(r), {
          'data-ratio': `${a}/${b}`,
          title: r === null ? `needs both medians (${a}: ${ms(of(a))}, ${b}: ${ms(of(b))} ms)` : `${a} median ÷ ${b} median = ${ms(of(a))} ÷ ${ms(of(b))} ms = ${r.toFixed(4)}`,
        });
      }),
    );
  });
  return el('div', { class: 'table-wrap fit' }, el('table', { class: 'variants', 'data-table': 'variants' }, head, el('tbody', {}, ...rows)));
}
