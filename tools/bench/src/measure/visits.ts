// A case run in several visits comes back as one raw result per visit and transport; a cell is their sum.
import { addBrokerCost, addPathCounters, type CallPhases, type MachineProbeReading, type Measurement, type PathCost, type Phases, type ProcessCost, type RawResult } from '../model';

const roundUs = (ms: number) => Math.round(ms * 1000) / 1000;

/** The delayer's CPU and packets of two stretches add up (unknown if either is); so does the receive thread's, when both have it. */
export function addPathCost(a: PathCost | null, b: PathCost | null): PathCost | null {
  if (!a || !b) return null;
  const receive = a.receiveCpuMs !== undefined && b.receiveCpuMs !== undefined ? { receiveCpuMs: roundUs(a.receiveCpuMs + b.receiveCpuMs) } : {};
  return { cpuMs: roundUs(a.cpuMs + b.cpuMs), packets: a.packets + b.packets, ...receive };
}

/** What the path meter counted between two of its running-total readings (unknown if either is). */
export function pathCostBetween(before: PathCost | null, after: PathCost | null): PathCost | null {
  if (!before || !after) return null;
  const receive = before.receiveCpuMs !== undefined && after.receiveCpuMs !== undefined ? { receiveCpuMs: roundUs(after.receiveCpuMs - before.receiveCpuMs) } : {};
  return { cpuMs: roundUs(after.cpuMs - before.cpuMs), packets: after.packets - before.packets, ...receive };
}

/** CPU times add up; the peak is the highest of the peaks. */
export function addCost(total: ProcessCost | null, more: ProcessCost | null): ProcessCost | null {
  if (!more) return total;
  if (!total) return { ...more };
  return {
    cpuUserMs: total.cpuUserMs + more.cpuUserMs,
    cpuSystemMs: total.cpuSystemMs + more.cpuSystemMs,
    peakRssBytes: Math.max(total.peakRssBytes, more.peakRssBytes),
    ...(total.gcMs !== undefined && more.gcMs !== undefined ? { gcMs: total.gcMs + more.gcMs } : {}),
  };
}

/**
 * Mean per-call phases over two stretches of `n` and `m` calls. A phase is known only if both
 * stretches reported it; an empty stretch (n = 0) contributes nothing.
 */
export function weightedPhases(a: Phases | null | undefined, n: number, b: Phases | null | undefined, m: number): Phases | null {
  if (n === 0) return b ? { ...b } : null;
  if (m === 0) return a ? { ...a } : null;
  if (!a || !b) return null;
  const mean = (x: number | null, y: number | null) => (x === null || y === null ? null : (x * n + y * m) / (n + m));
  return {
    serverBuildMs: mean(a.serverBuildMs, b.serverBuildMs),
    serverEncodeMs: mean(a.serverEncodeMs, b.serverEncodeMs),
    clientDecodeMs: mean(a.clientDecodeMs, b.clientDecodeMs),
    ...(a.serverBuildGcMs !== undefined && b.serverBuildGcMs !== undefined ? { serverBuildGcMs: mean(a.serverBuildGcMs, b.serverBuildGcMs) } : {}),
    ...(a.serverEncodeGcMs !== undefined && b.serverEncodeGcMs !== undefined ? { serverEncodeGcMs: mean(a.serverEncodeGcMs, b.serverEncodeGcMs) } : {}),
  };
}

/**
 * A measurement's per-call phases: its own, or, for one client answer, what the answer's phase means say
 * about each of its calls (exactly, for an answer of one call; unknown for an answer of several).
 */
function callPhasesOf(m: Measurement): CallPhases {
  if (m.callPhases) return m.callPhases;
  const n = m.samplesMs.length;
  if (n === 1) {
    return {
      serverEncodeMs: [m.phases?.serverEncodeMs ?? null],
      serverEncodeGcMs: [m.phases?.serverEncodeGcMs ?? null],
      serverGcMs: [m.server?.gcMs ?? null],
      clientGcMs: [m.client?.gcMs ?? null],
    };
  }
  const unknown = new Array<null>(n).fill(null);
  return { serverEncodeMs: unknown, serverEncodeGcMs: unknown, serverGcMs: unknown, clientGcMs: unknown };
}

/**
 * Measurement `a` followed by `b`: one more timed call in the runner, one more visit here. Samples and
 * warm-up calls are concatenated, CPU added, phases weighted by calls, the newest bytes and metrics error kept.
 */
export function combineMeasurements(a: Measurement, b: Measurement): Measurement {
  return {
    // The first cold call: every fork's first visit has one, but "cold" is about the first contact.
    coldMs: a.coldMs ?? b.coldMs,
    warmupMs: [...a.warmupMs, ...b.warmupMs],
    samplesMs: [...a.samplesMs, ...b.samplesMs],
    bytesPerResponse: b.bytesPerResponse ?? a.bytesPerResponse,
    rowsPerCall: b.rowsPerCall,
    client: addCost(a.client, b.client),
    server: addCost(a.server, b.server),
    serverMetricsError: b.serverMetricsError ?? a.serverMetricsError ?? null,
    phases: weightedPhases(a.phases, a.samplesMs.length, b.phases, b.samplesMs.length),
    callPhases: concatCallPhases(callPhasesOf(a), callPhasesOf(b)),
    // HTTP/2 transports: the windows the latest visit's session had (they do not change between visits).
    ...(a.http2Windows === undefined && b.http2Windows === undefined ? {} : { http2Windows: b.http2Windows ?? a.http2Windows ?? null }),
    // TLS: the first cold call's handshakes, and every visit's timed-call handshakes together.
    ...(a.tls === undefined && b.tls === undefined ? {} : { tls: { cold: a.tls?.cold ?? b.tls?.cold ?? null, timed: addHandshakes(a.tls?.timed ?? null, b.tls?.timed ?? null) } }),
  };
}

function concatCallPhases(a: CallPhases, b: CallPhases): CallPhases {
  const joined = (key: keyof CallPhases) => [...a[key], ...b[key]];
  return { serverEncodeMs: joined('serverEncodeMs'), serverEncodeGcMs: joined('serverEncodeGcMs'), serverGcMs: joined('serverGcMs'), clientGcMs: joined('clientGcMs') };
}

type Handshakes = NonNullable<NonNullable<Measurement['tls']>['timed']>;

/** Two stretches' handshakes as one: counts added, the mean weighted by count, the larger maximum, the latest protocol. */
function addHandshakes(a: Handshakes | null, b: Handshakes | null): Handshakes | null {
  if (!a || !b) return a ?? b;
  const count = a.count + b.count;
  return { count, resumed: a.resumed + b.resumed, meanMs: (a.meanMs * a.count + b.meanMs * b.count) / count, maxMs: Math.max(a.maxMs, b.maxMs), protocol: b.protocol, alpn: b.alpn };
}

/** Mean of the visits' probe readings, weighting each visit alike. */
function mergeProbe(a: MachineProbeReading | null, visitsInA: number, b: MachineProbeReading | null): MachineProbeReading | null {
  if (!a || !b) return a ?? b;
  const mean = (x: number, y: number) => (x * visitsInA + y) / (visitsInA + 1);
  return { before: mean(a.before, b.before), after: mean(a.after, b.after) };
}

/**
 * One cell from the cell so far (`sofar`, the sum of `visitsSoFar` visits) and one more visit of the
 * same variant, case and transport. Samples and warm-up calls are concatenated in visit order, runs and
 * wall time add up; a failed visit fails the cell with its error, as a failed transport does in one visit.
 */
export function mergeVisits(sofar: RawResult, more: RawResult, visitsSoFar: number): RawResult {
  const measurement =
    sofar.measurement && more.measurement ? combineMeasurements(sofar.measurement, more.measurement) : (sofar.measurement ?? more.measurement);
  const error = sofar.error ?? (more.error === null ? null : `visit ${visitsSoFar + 1}: ${more.error}`);
  const failure = sofar.failure ?? more.failure;
  return {
    ...sofar,
    runs: sofar.runs + more.runs,
    wallMs: sofar.wallMs + more.wallMs,
    measurement: error === null ? measurement : null,
    sampleOrder: [...sofar.sampleOrder, ...more.sampleOrder],
    error,
    failure,
    machineProbeMs: mergeProbe(sofar.machineProbeMs, visitsSoFar, more.machineProbeMs),
    ...(sofar.delayer === undefined && more.delayer === undefined ? {} : { delayer: addPathCost(sofar.delayer ?? null, more.delayer ?? null) }),
    // Unknown once a visit's are (a failed reading); otherwise the visits' counts add up.
    ...(sofar.pathCounters === undefined && more.pathCounters === undefined ? {} : { pathCounters: sofar.pathCounters && more.pathCounters ? addPathCounters(sofar.pathCounters, more.pathCounters) : null }),
    ...(sofar.disturbance === undefined && more.disturbance === undefined ? {} : { disturbance: [...(sofar.disturbance ?? []), ...(more.disturbance ?? [])] }),
    // The broker's part of each visit adds up as the apps' CPU does; unknown once a visit's is.
    ...(sofar.broker === undefined && more.broker === undefined ? {} : { broker: addBrokerCost(sofar.broker ?? null, more.broker ?? null) }),
    ...(sofar.visits === undefined && more.visits === undefined ? {} : { visits: [...(sofar.visits ?? []), ...(more.visits ?? [])] }),
  };
}

/**
 * Cells in the order a reader expects: variants, cases and transports as the options list them,
 * whatever order the visits happened in (①-3's one visit comes first).
 */
export function inPlanOrder<T extends Pick<RawResult, 'network' | 'runtime' | 'security' | 'variant' | 'case' | 'transport'>>(
  cells: readonly T[],
  networks: readonly string[],
  variants: readonly string[],
  cases: readonly string[],
  transports: readonly string[],
  runtimes: readonly string[] = [],
  securities: readonly string[] = [],
): T[] {
  const place = (cell: T) => networks.indexOf(cell.network ?? 'loopback') * (runtimes.length + 1) + runtimes.indexOf(cell.runtime ?? '');
  const rank = (cell: T) => [
    place(cell) * (securities.length + 1) + securities.indexOf(cell.security ?? 'plain'),
    variants.indexOf(cell.variant),
    cases.indexOf(cell.case),
    transports.indexOf(cell.transport),
  ];
  return [...cells].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || x[3] - y[3];
  });
}
