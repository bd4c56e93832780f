// Issue #23, "Why, decomposed": how much of gRPC-vs-JSON is the protocol, the codec and the library. One
// pure function over a run's results; results.md and report.html both print its rows, never their own.
import type { Cell } from '../model';
import { placeLabeller } from '../model';
import { ratioOfMediansCi, type RatioCi } from '../model';

/** One factor: the ratio of two transports' medians that differ in exactly one thing. */
export interface FactorDefinition {
  id: 'protocol' | 'codec' | 'library' | 'total';
  /** Column heading. */
  label: string;
  /** What the two cells differ in, in words. */
  differs: string;
  numerator: string;
  denominator: string;
}

/**
 * The factors as data. protocol and codec each change one thing from `json` (Nest JSON over HTTP/1.1);
 * library compares two gRPC implementations on the same wire; total is the blog's gRPC/JSON, for scale.
 * A ratio above 1 means the numerator is slower.
 */
export const FACTORS: readonly FactorDefinition[] = Object.freeze([
  { id: 'protocol', label: 'protocol: json-h2 ÷ json', differs: 'HTTP/2 cleartext instead of HTTP/1.1, same JSON', numerator: 'json-h2', denominator: 'json' },
  { id: 'codec', label: 'codec: proto-h1 ÷ json', differs: 'protobuf body instead of JSON, same HTTP/1.1', numerator: 'proto-h1', denominator: 'json' },
  { id: 'library', label: 'library: grpc ÷ connect-grpc', differs: 'grpc-js under Nest instead of connect-es, same gRPC wire', numerator: 'grpc', denominator: 'connect-grpc' },
  { id: 'total', label: 'total: grpc ÷ json', differs: "the blog's comparison: every factor at once", numerator: 'grpc', denominator: 'json' },
]);

export interface Factor {
  id: FactorDefinition['id'];
  /** median(numerator) ÷ median(denominator); null when either is missing. */
  ratio: number | null;
  /** Bootstrap 95 % CI of that ratio from the two cells' timed calls (stats.ratioOfMediansCi). */
  ci: RatioCi | null;
  /** Why the ratio is null: which cell was not measured or failed. */
  missing: string | null;
}

export interface AttributionRow {
  variant: string;
  /** Its network, with its runtime when the run has several (results.ts placeLabeller). */
  network: string;
  case: string;
  rows: number;
  requests: number;
  factors: Factor[];
}

export interface Attribution {
  rows: AttributionRow[];
  /** Whether the rows carry several variants / networks (then tables show those columns). */
  byVariant: boolean;
  byNetwork: boolean;
  /** Factors no row of the run could compute, with the reason (e.g. Connect not in this run). */
  unavailable: { id: FactorDefinition['id']; reason: string }[];
}

/** Transports that only the decomposition needs: a run without any of them has no attribution table. */
const DECOMPOSITION_TRANSPORTS: ReadonlySet<string> = new Set(FACTORS.flatMap((f) => [f.numerator, f.denominator]).filter((t) => t !== 'json' && t !== 'grpc'));

function factor(definition: FactorDefinition, cells: ReadonlyMap<string, Cell>): Factor {
  const top = cells.get(definition.numerator);
  const bottom = cells.get(definition.denominator);
  const absent = [top ? null : definition.numerator, bottom ? null : definition.denominator].filter(Boolean);
  if (absent.length > 0) return { id: definition.id, ratio: null, ci: null, missing: `${absent.join(' and ')} not measured` };
  const failed = [top!, bottom!].filter((c) => !c.ok || !c.summary);
  if (failed.length > 0) return { id: definition.id, ratio: null, ci: null, missing: `${failed.map((c) => c.transport).join(' and ')} failed` };
  return {
    id: definition.id,
    ratio: top!.summary!.median / bottom!.summary!.median,
    ci: ratioOfMediansCi(top!.samplesMs, bottom!.samplesMs),
    missing: null,
  };
}

/**
 * Per variant, network and case (document order): each factor of FACTORS with its bootstrap CI, from
 * the same run's cells. Empty when the run measured none of the decomposition's transports.
 */
export function attribution(results: readonly Cell[]): Attribution {
  const groups = new Map<string, Map<string, Cell>>();
  const placeOf = placeLabeller(results);
  for (const cell of results) {
    const key = JSON.stringify([cell.variant, placeOf(cell), cell.case]);
    const group = groups.get(key) ?? new Map<string, Cell>();
    group.set(cell.transport, cell);
    groups.set(key, group);
  }
  const rows: AttributionRow[] = [];
  for (const [key, cells] of groups) {
    if (![...cells.keys()].some((t) => DECOMPOSITION_TRANSPORTS.has(t))) continue;
    const [variant, network, caseId] = JSON.parse(key) as [string, string, string];
    const any = [...cells.values()][0];
    rows.push({ variant, network, case: caseId, rows: any.rows, requests: any.requests, factors: FACTORS.map((f) => factor(f, cells)) });
  }
  const unavailable = FACTORS.flatMap((f, i) => {
    if (rows.length === 0 || rows.some((row) => row.factors[i].ratio !== null)) return [];
    const reasons = [...new Set(rows.map((row) => row.factors[i].missing))];
    return [{ id: f.id, reason: reasons.join('; ') }];
  });
  return {
    rows,
    byVariant: new Set(rows.map((r) => r.variant)).size > 1,
    byNetwork: new Set(rows.map((r) => r.network)).size > 1,
    unavailable,
  };
}
