// The decision map's words: a cell as "JSON 3.1×", the map (analysis/decision-map.ts) as Markdown tables.
import { ms } from '../model';
import { type DecisionMap, type MapCell } from '../analysis';

/** "JSON 3.1×", "gRPC 2.0×", "tie", "—": who wins and by how much (the loser's median ÷ the winner's). */
export function describeCell(cell: MapCell): string {
  if (cell.ratio === null || cell.winner === null) return '—';
  if (cell.winner === 'tie') return 'tie';
  const factor = cell.winner === 'json' ? cell.ratio : 1 / cell.ratio;
  return `${cell.winner === 'json' ? 'JSON' : 'gRPC'} ${factor.toFixed(1)}×`;
}

/** The map as Markdown: one table per variant, cases down, networks (and runtimes) across, medians in brackets. */
export function renderDecisionMap(map: DecisionMap): string {
  return map.variants
    .map((variant) => {
      const head = `| ${variant}: case | ${map.columns.map((c) => c.label).join(' | ')} |`;
      const rule = `|---|${map.columns.map(() => '---').join('|')}|`;
      const rows = map.cases.map((c) => {
        const cells = map.columns.map((column) => {
          const cell = map.cell(variant, c.id, column);
          return cell.ratio === null ? '—' : `${describeCell(cell)} (${ms(cell.json)} vs ${ms(cell.grpc)} ms)`;
        });
        return `| ${c.id} | ${cells.join(' | ')} |`;
      });
      return [head, rule, ...rows].join('\n');
    })
    .join('\n\n');
}
