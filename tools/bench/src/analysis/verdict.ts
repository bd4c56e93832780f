// The verdict a report opens with: for each variant, case and network, who wins, by how much and why
// in one line. Computed once from the results (the reporter never measures); results.md and
// report.html print these rows. The "why" is read from what the run recorded (phases, bytes), never
// written per case, so it holds for whatever a user's run measured; when the slower cell's calls fall into
// two groups that the kernel's TCP counters explain (modes.ts) and that costs more than any phase, the
// mechanism is the why.
import type { BlogTransport, Cell, MedianCi, Transport } from '../model';
import { findCell, networkOf, runtimeOf, runtimesOf, securitiesOf, securityOf } from '../model';
import { PHASE_KEYS, PHASE_LABELS, phaseParts, type PhaseKey, type PhasePart } from './breakdown';
import { mapCell, TIE_WITHIN, type MapCell } from './decision-map';
import { cellModes, mechanismText } from './modes';
import { widestPackageGap } from './cpu-profile';
import { bytes, ms } from '../model';

/** Each transport as a reader names it. */
export const TRANSPORT_LABELS: Readonly<Record<Transport, string>> = {
  json: 'JSON',
  grpc: 'gRPC',
  'json-h2': 'JSON over HTTP/2',
  'proto-h1': 'protobuf over HTTP/1.1',
  'connect-json': 'Connect JSON',
  'connect-proto': 'Connect binary',
  'connect-grpc': 'connect-es gRPC',
  'nest-tcp': 'Nest TCP',
  'nest-redis': 'Nest Redis',
  'nest-nats': 'Nest NATS',
  'nest-rmq': 'Nest RabbitMQ',
  'nest-mqtt': 'Nest MQTT',
  'nest-kafka': 'Nest Kafka',
};

export interface VerdictRow {
  variant: string;
  case: string;
  network: string;
  /** The Node runtime (runtimes.ts's name) its apps ran on. */
  runtime: string;
  /** plain, tls or mtls (--security). */
  security: string;
  rows: number;
  requests: number;
  /** Medians, gRPC/JSON and the winner, as the decision map has them. */
  cell: MapCell;
  /** Each median's 95 % CI, null where the cell failed or had too few calls. */
  ci: Record<BlogTransport, MedianCi | null>;
  /** The slower median ÷ the faster (≥ 1), null when either is missing. */
  factor: number | null;
  /**
   * The same factor's bounds from the two medians' 95 % CIs (slower's high ÷ faster's low, and the
   * reverse); both CIs hold at once with ≥ 90 % probability. Null when either median has no CI.
   */
  range: { low: number; high: number } | null;
  /** One line, from the run's own data: which part of a call makes the difference. */
  why: string;
}

export interface Verdict {
  rows: VerdictRow[];
  /** Whether the tables show a variant column (always) and a network column (when the run has several networks). */
  byVariant: boolean;
  byNetwork: boolean;
  /** Whether they show a node column (when the run has several runtimes, --node). */
  byRuntime: boolean;
  /** Whether they show a security column (when the run has several, --security). */
  bySecurity: boolean;
}

const percent = (share: number) => `${Math.round(share * 100)} %`;

function find(results: readonly Cell[], variant: string, caseId: string, network: string, runtime: string, security: string, transport: Transport): Cell | undefined {
  return findCell(results, { variant, case: caseId, network, runtime, security, transport });
}

/** The phases of a call as a record, or null when the cell has none (failed, or an older document). */
function partsOf(cell: Cell): Record<PhaseKey, PhasePart> | null {
  if (!cell.phases) return null;
  const parts = phaseParts(cell.phases);
  return Object.fromEntries(parts.map((p) => [p.phase, p])) as Record<PhaseKey, PhasePart>;
}

function bytesClause(json: Cell, grpc: Cell): string {
  if (json.bytesPerCall === null || grpc.bytesPerCall === null) return '';
  return `; ${bytes(json.bytesPerCall)} vs ${bytes(grpc.bytesPerCall)} per call`;
}

/**
 * Why the slower call is slower: the phase whose time differs most between the two (server build,
 * encode, client decode, or the remainder: framework, transport and waiting), with its share of the
 * slower call; for a tie, the part that takes the most time over both calls. Bytes per call follow (JSON vs gRPC).
 */
export function whyLine(json: Cell | undefined, grpc: Cell | undefined, cell: MapCell): string {
  if (!json || !grpc) return `${!json ? 'JSON' : 'gRPC'} was not measured`;
  for (const c of [json, grpc]) if (!c.ok) return `${TRANSPORT_LABELS[c.transport]} failed: ${(c.error ?? 'unknown error').slice(0, 120)}`;
  if (cell.json === null || cell.grpc === null) return 'no timed calls';
  const [slow, fast] = cell.grpc > cell.json ? [grpc, json] : [json, grpc];
  const sp = partsOf(slow);
  const fp = partsOf(fast);
  const sizes = bytesClause(json, grpc);
  // A mechanism the kernel's counters show in the slower cell's modes (modes.ts), named when it is the largest difference.
  const mechanism = cell.winner === 'tie' ? null : (cellModes(slow)?.mechanism ?? null);
  const mechanismLine = mechanism && `${TRANSPORT_LABELS[slow.transport]}: ${mechanismText(mechanism, slow.samplesMs.length)}, ≈ ${ms(mechanism.extraMsPerCall)} ms per call on average${sizes}`;
  if (!sp || !fp) return mechanismLine ?? `phases not recorded${sizes}`;
  // Phases that overlap (a paced stream encodes while it sends) sum to more than the call: the remainder
  // goes negative and is no part of the call to compare.
  const overlap = [slow, fast].some((c) => (c.phases!.remainderMs ?? 0) < 0);
  const share = (key: PhaseKey, c: Cell, parts: Record<PhaseKey, PhasePart>) =>
    parts[key].share === null || overlap ? null : `${TRANSPORT_LABELS[c.transport]} ${percent(parts[key].share!)}`;
  if (cell.winner === 'tie') {
    // The part that takes the most time over both calls together.
    const largest = PHASE_KEYS.filter((k) => sp[k].ms !== null && fp[k].ms !== null).sort((a, b) => sp[b].ms! + fp[b].ms! - sp[a].ms! - fp[a].ms!)[0];
    if (!largest) return `phases not recorded${sizes}`;
    const shares = [share(largest, json, json === slow ? sp : fp), share(largest, grpc, grpc === slow ? sp : fp)].filter(Boolean);
    return `within ${TIE_WITHIN}×; the largest part of the two calls is ${PHASE_LABELS[largest]}${shares.length === 2 ? ` (${shares.join(', ')})` : ''}${sizes}`;
  }
  const gaps = PHASE_KEYS.filter((k) => sp[k].ms !== null && fp[k].ms !== null && sp[k].ms! >= 0 && fp[k].ms! >= 0).map((k) => ({ k, gap: sp[k].ms! - fp[k].ms! }));
  const widest = gaps.sort((a, b) => b.gap - a.gap)[0];
  if (mechanismLine && mechanismIsLargest(mechanism!.extraMsPerCall, gaps)) return mechanismLine;
  if (!widest || widest.gap <= 0) return `no measured phase explains the gap${sizes}`;
  const k = widest.k;
  const overlapping = slow.requests > 1 ? `, summed over ${slow.requests} parallel requests` : ', phases overlapping (a streamed reply)';
  const of = overlap ? overlapping : sp[k].share === null ? '' : `, ${percent(sp[k].share!)} of ${TRANSPORT_LABELS[slow.transport]}'s call`;
  return `${PHASE_LABELS[k]}: ${TRANSPORT_LABELS[slow.transport]} ${ms(sp[k].ms)} vs ${TRANSPORT_LABELS[fast.transport]} ${ms(fp[k].ms)} ms per call${of}${k === 'remainder' ? profileClause(slow, fast) : ''}${sizes}`;
}

/** When the remainder separates them and both were profiled (--cpu-profile): the package whose CPU per call differs most. */
function profileClause(slow: Cell, fast: Cell): string {
  const gap = widestPackageGap(slow, fast);
  if (!gap) return '';
  return `; in the profiles, ${gap.package} differs most: ${ms(gap.slowMs)} vs ${ms(gap.fastMs)} ms CPU per call`;
}

/**
 * Whether a mechanism's extra time per call is the largest difference: the wait is part of the remainder
 * (framework, transport and waiting), so it is set against every other phase's gap and against what the
 * remainder's gap leaves once the wait is taken out of it.
 */
function mechanismIsLargest(extraMs: number, gaps: readonly { k: PhaseKey; gap: number }[]): boolean {
  return gaps.every(({ k, gap }) => extraMs >= (k === 'remainder' ? gap - extraMs : gap));
}

function rangeOf(ci: VerdictRow['ci'], cell: MapCell): VerdictRow['range'] {
  const { json: j, grpc: g } = ci;
  if (!j || !g || cell.json === null || cell.grpc === null || j.low <= 0 || g.low <= 0) return null;
  // gRPC ÷ JSON lies in [g.low / j.high, g.high / j.low]; the factor reads it from the faster side.
  return cell.grpc >= cell.json ? { low: g.low / j.high, high: g.high / j.low } : { low: j.low / g.high, high: j.high / g.low };
}

/** The verdict rows of a run: variants, then cases, then networks, then runtimes, then security modes, in the order they first appear. */
export function verdict(results: readonly Cell[]): Verdict {
  const unique = <T>(values: T[]) => [...new Set(values)];
  const variants = unique(results.map((r) => r.variant));
  const cases = unique(results.map((r) => r.case));
  const networks = unique(results.map(networkOf));
  const runtimes = runtimesOf(results);
  const securities = securitiesOf(results);
  const rows: VerdictRow[] = [];
  for (const variant of variants) {
    for (const caseId of cases) {
      for (const network of networks) {
        for (const runtime of runtimes) {
          for (const security of securities) {
            const any = results.find((r) => r.variant === variant && r.case === caseId && networkOf(r) === network && runtimeOf(r) === runtime && securityOf(r) === security);
            if (!any) continue;
            const json = find(results, variant, caseId, network, runtime, security, 'json');
            const grpc = find(results, variant, caseId, network, runtime, security, 'grpc');
            const cell = mapCell(results, variant, caseId, network, runtime, security);
            const factor = cell.ratio === null ? null : Math.max(cell.ratio, 1 / cell.ratio);
            const ci = { json: (json?.ok && json.summary?.medianCi) || null, grpc: (grpc?.ok && grpc.summary?.medianCi) || null };
            const why = whyLine(json, grpc, cell);
            rows.push({ variant, case: caseId, network, runtime, security, rows: any.rows, requests: any.requests, cell, ci, factor, range: rangeOf(ci, cell), why });
          }
        }
      }
    }
  }
  // The variant is always a column: every row of every export says which apps it measured (a run against a
  // tuned client must never read as the blog's).
  return { rows, byVariant: true, byNetwork: networks.length > 1, byRuntime: runtimes.length > 1, bySecurity: securities.length > 1 };
}
