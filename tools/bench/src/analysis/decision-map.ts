// The decision map: for each variant, case and network (and runtime, when --node named several), which
// transport wins and by how much. The reporter only reads the results' medians; Markdown and HTML render the same map.
import type { Cell } from '../model';
import { cellMedian, grpcOverJson, networkOf, runtimesOf, securitiesOf } from '../model';

/** Within this factor of each other (either way), neither transport is called the winner. */
export const TIE_WITHIN = 1.1;

export interface MapCell {
  /** gRPC median ÷ JSON median (> 1: JSON faster); null when either failed or is missing. */
  ratio: number | null;
  json: number | null;
  grpc: number | null;
  winner: 'json' | 'grpc' | 'tie' | null;
}

/** One column of the map: a network, a runtime, or both ("region · Node 20"). */
export interface MapColumn {
  label: string;
  network: string;
  runtime: string;
  security: string;
}

export interface DecisionMap {
  variants: string[];
  columns: MapColumn[];
  cases: { id: string; rows: number; requests: number }[];
  cell(variant: string, caseId: string, column: MapColumn): MapCell;
}

/** The map of a run's results, in the order they appear (null when the run has a single network and runtime: no map to draw). */
export function decisionMap(results: readonly Cell[]): DecisionMap | null {
  const unique = <T>(values: T[]) => [...new Set(values)];
  const networks = unique(results.map(networkOf));
  const runtimes = runtimesOf(results);
  const securities = securitiesOf(results);
  if (networks.length < 2 && runtimes.length < 2 && securities.length < 2) return null;
  const columns = networks.flatMap((network) =>
    runtimes.flatMap((runtime) =>
      securities.map((security) => ({
        network,
        runtime,
        security,
        label: [...(networks.length > 1 ? [network] : []), ...(runtimes.length > 1 ? [`Node ${runtime}`] : []), ...(securities.length > 1 ? [security] : [])].join(' · '),
      })),
    ),
  );
  const cases = unique(results.map((r) => r.case)).map((id) => {
    const r = results.find((x) => x.case === id)!;
    return { id, rows: r.rows, requests: r.requests };
  });
  return {
    variants: unique(results.map((r) => r.variant)),
    columns,
    cases,
    cell: (variant, caseId, column) => mapCell(results, variant, caseId, column.network, column.runtime, column.security),
  };
}

/** Who wins one case in one variant across one network on one runtime (default the run's first), from the two medians (a tie within TIE_WITHIN). */
export function mapCell(results: readonly Cell[], variant: string, caseId: string, network: string, runtime = runtimesOf(results)[0], security = 'plain'): MapCell {
  const ratio = grpcOverJson(results, caseId, variant, network, runtime, security);
  const winner = ratio === null ? null : ratio > TIE_WITHIN ? 'json' : ratio < 1 / TIE_WITHIN ? 'grpc' : 'tie';
  const median = (transport: 'json' | 'grpc') => cellMedian(results, { variant, case: caseId, network, runtime, security, transport });
  return { ratio, winner, json: median('json'), grpc: median('grpc') };
}
