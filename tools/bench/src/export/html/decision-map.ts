// The decision map as a heat map: a table per variant whose cells are coloured by who wins and by how
// much (JSON's blue, gRPC's orange, stronger for larger factors), with the medians in each cell.
import { type Cell, ms } from '../../model';
import { decisionMap, TIE_WITHIN, type MapCell } from '../../analysis';
import { describeCell } from '../decision-map';
import { escapeHtml } from './escape';
import { TRANSPORT_STYLE } from './palette';
import { el } from './svg';

/** Colour strength grows with log(factor) and is full at 10×. */
export function shade(cell: MapCell): string | null {
  if (cell.ratio === null || cell.winner === null || cell.winner === 'tie') return null;
  const factor = cell.winner === 'json' ? cell.ratio : 1 / cell.ratio;
  const strength = Math.min(1, Math.log(factor / TIE_WITHIN) / Math.log(10 / TIE_WITHIN));
  const alpha = Math.round((0.15 + 0.75 * strength) * 255)
    .toString(16)
    .padStart(2, '0');
  return `background:${TRANSPORT_STYLE[cell.winner].colour}${alpha}`;
}

/** The heat map section's content, or null for a run across one network on one runtime. */
export function renderDecisionMapHtml(results: readonly Cell[]): string | null {
  const map = decisionMap(results);
  if (!map) return null;
  const tables = map.variants.map((variant) => {
    const head = el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, `${escapeHtml(variant)}: case`), ...map.columns.map((column) => el('th', { scope: 'col' }, escapeHtml(column.label)))));
    const rows = map.cases.map((c) =>
      el(
        'tr',
        {},
        el('th', { scope: 'row' }, escapeHtml(c.id)),
        ...map.columns.map((column) => {
          const cell = map.cell(variant, c.id, column);
          const title = cell.ratio === null ? 'not measured or failed' : `JSON ${ms(cell.json)} ms, gRPC ${ms(cell.grpc)} ms, gRPC/JSON ${cell.ratio.toFixed(2)}×`;
          return el('td', { style: shade(cell), title, 'data-winner': cell.winner ?? 'none' }, escapeHtml(describeCell(cell)));
        }),
      ),
    );
    return el('table', { class: 'decision-map', 'data-variant': variant }, head, el('tbody', {}, ...rows));
  });
  const note = el(
    'p',
    {},
    `Who wins each case across each network (and on each runtime), and by how much (the slower median ÷ the faster). Within ${TIE_WITHIN}× either way: tie. ` +
      'Blue: JSON faster; orange: gRPC faster; the stronger the colour, the larger the factor (full at 10×).',
  );
  return note + tables.join('');
}
