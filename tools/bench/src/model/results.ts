import type { CellKey, Cell, CellVisit, PhaseBreakdown, Phases, RawResult, Transport } from './model';
import { mean, summarize } from './stats';
import { runtimeNameOf, UNKNOWN_RUNTIME } from './runtime-name';

/** The phases against the mean call time; what they leave is framework, transport and waiting. */
export function phaseBreakdown(samplesMs: readonly number[], phases: Phases | null | undefined): PhaseBreakdown | null {
  if (!phases || samplesMs.length === 0) return null;
  const totalMs = mean(samplesMs);
  const known = [phases.serverBuildMs, phases.serverEncodeMs, phases.clientDecodeMs];
  const remainderMs = known.every((v): v is number => v !== null) ? totalMs - known.reduce((a, b) => a + b, 0) : null;
  return { ...phases, totalMs, remainderMs };
}

/** The network a result ran across (results from before the network stage ran on loopback). */
/**
 * The visit (and so the set of apps) that gave each of a cell's samples, in the samples' order; null when
 * the cell has no visits recorded (runs before them) or they do not add up to its samples.
 */
export function visitOfEachSample(cell: Pick<Cell, 'samplesMs' | 'visits'>): CellVisit[] | null {
  const each = (cell.visits ?? []).flatMap((v) => Array.from({ length: v.calls }, () => v));
  return cell.visits && each.length === cell.samplesMs.length ? each : null;
}

export function networkOf(cell: Pick<CellKey, 'network'>): string {
  return cell.network ?? 'loopback';
}

/** Whether any result ran across a network stage: then tables show a network column. */
export function anyOffLoopback(results: readonly Pick<CellKey, 'network'>[]): boolean {
  return results.some((r) => networkOf(r) !== 'loopback');
}

/** The Node runtime a result ran on (UNKNOWN_RUNTIME for a version 2 cell not yet labelled by withRuntimes). */
export function runtimeOf(cell: Pick<CellKey, 'runtime'>): string {
  return cell.runtime ?? UNKNOWN_RUNTIME;
}

/** The runtimes of a run's results, in the order they first appear. */
export function runtimesOf(results: readonly Pick<CellKey, 'runtime'>[]): string[] {
  return [...new Set(results.map(runtimeOf))];
}

/**
 * A document's results, each labelled with its runtime: as recorded (schema 3), or for a run from before
 * --node, the Node its provenance recorded for the measuring client (else the bench's), else UNKNOWN_RUNTIME.
 */
export function withRuntimes<T extends Pick<CellKey, 'runtime'>>(results: readonly T[], provenance: Partial<Record<'client' | 'bench', { node?: unknown }>> | undefined): T[] {
  const recorded = (key: 'client' | 'bench') => provenance?.[key]?.node;
  const legacy = runtimeNameOf(recorded('client') ?? recorded('bench'));
  return results.map((r) => (r.runtime === undefined ? { ...r, runtime: legacy } : r));
}

/** Whether a run's results ran on more than one runtime: then tables show a node column. */
export function anyRuntimes(results: readonly Pick<CellKey, 'runtime'>[]): boolean {
  return runtimesOf(results).length > 1;
}

/** What a result's connections were wrapped in (plain in runs from before --security). */
export function securityOf(cell: Pick<CellKey, 'security'>): string {
  return cell.security ?? 'plain';
}

/** The security modes of a run's results, in the order they first appear. */
export function securitiesOf(results: readonly Pick<CellKey, 'security'>[]): string[] {
  return [...new Set(results.map(securityOf))];
}

/** Whether any result ran over TLS: then tables show a security column. */
export function anySecurity(results: readonly Pick<CellKey, 'security'>[]): boolean {
  return results.some((r) => securityOf(r) !== 'plain');
}

/** The labels that place a result before its variant in a table row: its network (off loopback), its runtime (several), its security (any TLS). */
export function placeLabels(results: readonly Pick<CellKey, 'network' | 'runtime' | 'security'>[], cell: Pick<CellKey, 'network' | 'runtime' | 'security'>): string[] {
  return [...(anyOffLoopback(results) ? [networkOf(cell)] : []), ...(anyRuntimes(results) ? [`Node ${runtimeOf(cell)}`] : []), ...(anySecurity(results) ? [securityOf(cell)] : [])];
}

/**
 * How the secondary tables (variants, attribution, ablation, path cost) name where a cell ran, in their
 * network column: its network, and with several runtimes in the run its runtime too ("loopback · Node 20"),
 * so their rows never pool two runtimes' cells.
 */
export function placeLabeller(results: readonly Pick<CellKey, 'runtime' | 'security'>[]): (cell: Pick<CellKey, 'network' | 'runtime' | 'security'>) => string {
  const several = anyRuntimes(results);
  const secure = anySecurity(results);
  return (cell) => [networkOf(cell), ...(several ? [`Node ${runtimeOf(cell)}`] : []), ...(secure ? [securityOf(cell)] : [])].join(' · ');
}

/** The one key of a cell, wherever cells are pooled, exported or paired: network, runtime, security, variant, case and transport. */
export function cellKey(cell: Pick<CellKey, 'network' | 'runtime' | 'security' | 'variant' | 'case'> & { transport: string }): string {
  return `${networkOf(cell)}\u0000${runtimeOf(cell)}\u0000${securityOf(cell)}\u0000${cell.variant}\u0000${cell.case}\u0000${cell.transport}`;
}

/** A cell's result among a run's: the one with the same cellKey, or undefined when the run has none. */
export function findCell<T extends Pick<CellKey, 'network' | 'runtime' | 'security' | 'variant' | 'case' | 'transport'>>(
  results: readonly T[],
  cell: Pick<CellKey, 'network' | 'runtime' | 'security' | 'variant' | 'case' | 'transport'>,
): T | undefined {
  const key = cellKey(cell);
  return results.find((r) => cellKey(r) === key);
}

/** The median of a cell that succeeded, else null. */
export function cellMedian(results: readonly Cell[], cell: Pick<CellKey, 'network' | 'runtime' | 'security' | 'variant' | 'case' | 'transport'>): number | null {
  const found = findCell(results, cell);
  return found?.ok ? (found.summary?.median ?? null) : null;
}

/** Turns the runner's raw result into the row results.json keeps (pure). */
export function toCell(raw: RawResult): Cell {
  const m = raw.measurement;
  const bytes = m?.bytesPerResponse ?? null;
  return {
    network: networkOf(raw),
    runtime: runtimeOf(raw),
    security: securityOf(raw),
    variant: raw.variant,
    case: raw.case,
    transport: raw.transport,
    rows: raw.rows,
    requests: raw.requests,
    warmup: raw.warmup,
    runs: raw.runs,
    samplesMs: m?.samplesMs ?? [],
    warmupMs: m?.warmupMs ?? [],
    coldMs: m?.coldMs ?? null,
    bytes,
    bytesPerCall: bytes === null ? null : bytes * raw.requests,
    rowsPerCall: m?.rowsPerCall ?? null,
    sampleOrder: raw.sampleOrder,
    ok: raw.error === null && m !== null,
    error: raw.error,
    failure: raw.failure,
    summary: summarize(m?.samplesMs ?? []),
    blogMs: raw.blogMs,
    client: m?.client ?? null,
    server: m?.server ?? null,
    phases: m ? phaseBreakdown(m.samplesMs, m.phases) : null,
    ...(m?.callPhases === undefined ? {} : { callPhases: m.callPhases }),
    ...(m?.http2Windows === undefined ? {} : { http2Windows: m.http2Windows }),
    ...(m?.tls === undefined ? {} : { tls: m.tls }),
    startedAt: raw.startedAt,
    wallMs: raw.wallMs,
    machineProbeMs: raw.machineProbeMs,
    ...(raw.delayer === undefined ? {} : { delayer: raw.delayer }),
    ...(raw.pathCounters === undefined ? {} : { pathCounters: raw.pathCounters }),
    ...(raw.disturbance === undefined ? {} : { disturbance: raw.disturbance }),
    ...(raw.visits === undefined ? {} : { visits: raw.visits }),
    ...(raw.broker === undefined ? {} : { broker: raw.broker }),
  };
}

/**
 * gRPC median ÷ JSON median for a case in a variant, when both ran and succeeded (> 1: gRPC slower); on
 * `runtime`, by default the run's first (its only one, unless --node named several).
 */
export function grpcOverJson(results: readonly Cell[], caseId: string, variant = 'blog', network = 'loopback', runtime = runtimesOf(results)[0], security = 'plain'): number | null {
  const median = (transport: Transport) => cellMedian(results, { network, runtime, security, variant, case: caseId, transport });
  const json = median('json');
  const grpc = median('grpc');
  return json !== null && grpc !== null && json > 0 ? grpc / json : null;
}

/** The blog's gRPC ÷ JSON average for a case, from the blog figures recorded with the results. */
export function blogRatio(results: readonly Cell[], caseId: string): number | null {
  const blog = (transport: Transport) => results.find((r) => r.case === caseId && r.transport === transport)?.blogMs ?? null;
  const json = blog('json');
  const grpc = blog('grpc');
  return json !== null && grpc !== null && json > 0 ? grpc / json : null;
}
