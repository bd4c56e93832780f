// The decision map: for each variant, case and network, which transport wins and by how much. The
// reporter only reads the results' medians; Markdown and HTML render the same map.
import type { CaseResult } from '../results/model';
import { grpcOverJson, networkOf } from '../results/results';
import { ms } from './format';

/** Within this factor of each other (either way), neither transport is called the winner. */
export const TIE_WITHIN = 1.1;

export interface MapCell {
  /** gRPC median ÷ JSON median (> 1: JSON faster); null when either failed or is missing. */
  ratio: number | null;
  json: number | null;
  grpc: number | null;
  winner: 'json' | 'grpc' | 'tie' | null;
}

export interface DecisionMap {
  variants: string[];
  networks: string[];
  cases: { id: string; rows: number; requests: number }[];
  cell(variant: string, caseId: string, network: string): MapCell;
}

function median(results: readonly CaseResult[], variant: string, caseId: string, network: string, transport: string): number | null {
  const r = results.find((x) => x.variant === variant && x.case === caseId && networkOf(x) === network && x.transport === transport && x.ok);
  return r?.summary?.median ?? null;
}

/** The map of a run's results, in the order they appear (null when the run has a single network: no map to draw). */
export function decisionMap(results: readonly CaseResult[]): DecisionMap | null {
  const unique = <T>(values: T[]) => [...new Set(values)];
  const networks = unique(results.map(networkOf));
  if (networks.length < 2) return null;
  const cases = unique(results.map((r) => r.case)).map((id) => {
    const r = results.find((x) => x.case === id)!;
    return { id, rows: r.rows, requests: r.requests };
  });
  return {
    variants: unique(results.map((r) => r.variant)),
    networks,
    cases,
    cell: (variant, caseId, network) => mapCell(results, variant, caseId, network),
  };
}

/** Who wins one case in one variant across one network, from the two medians (a tie within TIE_WITHIN). */
export function mapCell(results: readonly CaseResult[], variant: string, caseId: string, network: string): MapCell {
  const ratio = grpcOverJson(results, caseId, variant, network);
  const winner = ratio === null ? null : ratio > TIE_WITHIN ? 'json' : ratio < 1 / TIE_WITHIN ? 'grpc' : 'tie';
  return { ratio, winner, json: median(results, variant, caseId, network, 'json'), grpc: median(results, variant, caseId, network, 'grpc') };
}

/** "JSON 3.1×", "gRPC 2.0×", "tie", "—": who wins and by how much (the loser's median ÷ the winner's). */
export function describeCell(cell: MapCell): string {
  if (cell.ratio === null || cell.winner === null) return '—';
  if (cell.winner === 'tie') return 'tie';
  const factor = cell.winner === 'json' ? cell.ratio : 1 / cell.ratio;
  return `${cell.winner === 'json' ? 'JSON' : 'gRPC'} ${factor.toFixed(1)}×`;
}

/** The map as Markdown: one table per variant, cases down, networks across, medians in brackets. */
export function renderDecisionMap(map: DecisionMap): string {
  return map.variants
    .map((variant) => {
      const head = `| ${variant}: case | ${map.networks.join(' | ')} |`;
      const rule = `|---|${map.networks.map(() => '---').join('|')}|`;
      const rows = map.cases.map((c) => {
        const cells = map.networks.map((network) => {
          const cell = map.cell(variant, c.id, network);
          return cell.ratio === null ? '—' : `${describeCell(cell)} (${ms(cell.json)} vs ${ms(cell.grpc)} ms)`;
        });
        return `| ${c.id} | ${cells.join(' | ')} |`;
      });
      return [head, rule, ...rows].join('\n');
    })
    .join('\n\n');
}
