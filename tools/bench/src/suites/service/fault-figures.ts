// What the callers saw during a fault run, from the calls themselves (the driver's call log) and the
// replicas' own counters polled through it: pure, so every figure is tested on made-up calls.
import { FAULT_SCHEDULE } from './faults';
import { isHung, type CallLog } from './call-log';

/** One reading of everyone's counters during a fault run (null: that replica did not answer in time). */
export interface CounterPoll {
  atMs: number;
  requests: Record<string, number | null>;
  cpuMs: Record<string, number | null>;
  driverCpuMs: number;
  proxyCpuMs: number | null;
}

/** The calls due in one bin: how they ended, and their p99 from the due time (a hung call at its deadline). */
export interface FaultBin {
  atMs: number;
  ok: number;
  failed: number;
  hung: number;
  p99Ms: number | null;
}

export interface FaultFigures {
  due: number;
  ok: number;
  /** Failed fast (a reset, a refusal, UNAVAILABLE) … */
  failed: number;
  /** … or hung until their deadline (or past the drain). */
  hung: number;
  /** Succeeded, but more than `slowMs` after they were due (held by a frozen or lost replica until it came back). */
  slow: number;
  /** What counts as slow here: 5 × the steady phase's p99, at least SLOW_FLOOR_MS. */
  slowMs: number;
  /** Every call that did not succeed, by kind (the gRPC status, the HTTP status, the socket error, the deadline). */
  byKind: Record<string, number>;
  /** From the injection to the end of the first call that did not succeed (null: none). */
  firstFailureAfterMs: number | null;
  /** From the injection to the due time of the last call that did not succeed or was slow, before every later one was fine (0: none; null: not in the run). */
  recoveredAfterMs: number | null;
  /** Whether the callers were whole again before the undo, only after it, or not in the run. */
  recovery: 'nothing failed' | 'before the undo' | 'after the undo' | 'not in the run';
  /** From the injection until the other replicas' own counters carried ≥ 90 % of the offered calls in every later 500 ms until the undo (null: not before it). */
  survivorsCarryAfterMs: number | null;
  /** The faulted replica's own counter: its share of the requests in the steady phase, when it last answered and answered again, and the requests it counted across. */
  faulted: { steadyShare: number | null; silentFromMs: number | null; answeredAgainAtMs: number | null; requestsAcross: number | null } | null;
  /** CPU per second of every process read (driver, replicas, proxy) in each phase: steady, fault, after the undo (ms/s). */
  cpuMsPerS: { steady: number | null; fault: number | null; undone: number | null };
  bins: FaultBin[];
}

export interface FaultRunTimes {
  injectedAtMs: number;
  /** null: not undone within the run. */
  undoneAtMs: number | null;
  endMs: number;
  rate: number;
  /** The replica the fault was injected into; null for a component. */
  faulted: string | null;
}

/** A call slower than 5 × the steady phase's p99 (the calls that ended before the injection), and than this, is slow. */
export const SLOW_FLOOR_MS = 200;

interface Call {
  due: number;
  end: number;
  kind: string;
}

const callsOf = (log: CallLog): Call[] => {
  const out: Call[] = [];
  for (let i = 0; i + 2 < log.calls.length; i += 3) out.push({ due: log.calls[i], end: log.calls[i + 1], kind: log.kinds[log.calls[i + 2]] });
  return out.sort((a, b) => a.due - b.due);
};

/** Nearest-rank p99 of latencies (ms). */
function p99(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)];
}

export function faultBins(calls: readonly Call[], binMs = FAULT_SCHEDULE.binMs): FaultBin[] {
  const bins: { ok: number; failed: number; hung: number; latencies: number[] }[] = [];
  for (const c of calls) {
    const i = Math.max(0, Math.floor(c.due / binMs));
    while (bins.length <= i) bins.push({ ok: 0, failed: 0, hung: 0, latencies: [] });
    const bin = bins[i];
    if (c.kind === 'ok') bin.ok += 1;
    else if (isHung(c.kind)) bin.hung += 1;
    else bin.failed += 1;
    bin.latencies.push(c.end - c.due);
  }
  return bins.map((b, i) => ({ atMs: i * binMs, ok: b.ok, failed: b.failed, hung: b.hung, p99Ms: p99(b.latencies) }));
}

/** Slow: 5 × the p99 of the calls due before the injection, at least SLOW_FLOOR_MS. */
function slowMsOf(calls: readonly Call[], t: FaultRunTimes): number {
  // Calls that ended before the injection: one in flight then and held by the fault is not steady (at a 3 s phase a few of them were the p99).
  const steady = p99(calls.filter((c) => c.end < t.injectedAtMs && c.kind === 'ok').map((c) => c.end - c.due));
  return Math.max(SLOW_FLOOR_MS, 5 * (steady ?? 0));
}

/**
 * When the callers were whole again: the due time of the last call that failed, hung or was slow.
 * Whole before the undo only if none was due in the window's last slowMs (a call held there and let go
 * by the undo cannot have been slow yet) and a few bins more; else after the undo, or not in the run.
 */
function recoveryOf(calls: readonly Call[], t: FaultRunTimes, slowMs: number): Pick<FaultFigures, 'recoveredAfterMs' | 'recovery'> {
  const bad = calls.filter((c) => (c.kind !== 'ok' || c.end - c.due > slowMs) && c.end >= t.injectedAtMs);
  if (bad.length === 0) return { recoveredAfterMs: 0, recovery: 'nothing failed' };
  const settle = slowMs + 3 * FAULT_SCHEDULE.binMs;
  const window = t.undoneAtMs ?? t.endMs;
  const lastBefore = Math.max(...bad.filter((c) => c.due < window).map((c) => c.due), -Infinity);
  if (lastBefore < window - settle) return { recoveredAfterMs: Math.max(0, lastBefore - t.injectedAtMs), recovery: 'before the undo' };
  const last = Math.max(...bad.map((c) => c.due));
  if (t.undoneAtMs !== null && last < t.endMs - settle) return { recoveredAfterMs: last - t.injectedAtMs, recovery: 'after the undo' };
  return { recoveredAfterMs: null, recovery: 'not in the run' };
}

/** Requests the replicas other than `faulted` counted between two polls (only those readable in both). */
function survivorsServed(a: CounterPoll, b: CounterPoll, faulted: string | null): number {
  let n = 0;
  for (const [name, after] of Object.entries(b.requests)) {
    const before = a.requests[name];
    if (name !== faulted && after !== null && before !== null && before !== undefined && after >= before) n += after - before;
  }
  return n;
}

function survivorsCarry(polls: readonly CounterPoll[], t: FaultRunTimes): number | null {
  const window = t.undoneAtMs ?? t.endMs;
  const inFault = polls.filter((p) => p.atMs >= t.injectedAtMs && p.atMs <= window);
  const chunkMs = 500;
  for (let k = 0; k < inFault.length; k++) {
    let ok = true;
    let chunks = 0;
    let from = k;
    for (let j = k + 1; j < inFault.length && ok; j++) {
      const spanMs = inFault[j].atMs - inFault[from].atMs;
      if (spanMs < chunkMs) continue;
      const expected = (t.rate * spanMs) / 1000;
      if (survivorsServed(inFault[from], inFault[j], t.faulted) < 0.9 * expected) ok = false;
      chunks += 1;
      from = j;
    }
    if (ok && chunks > 0) return inFault[k].atMs - t.injectedAtMs;
  }
  return null;
}

function faultedCounter(polls: readonly CounterPoll[], t: FaultRunTimes): FaultFigures['faulted'] {
  const name = t.faulted;
  if (name === null) return null;
  const steady = polls.filter((p) => p.atMs <= t.injectedAtMs && p.requests[name] !== null);
  const first = steady[0];
  const last = steady.at(-1);
  let steadyShare: number | null = null;
  if (first && last && first !== last) {
    const mine = (last.requests[name] ?? 0) - (first.requests[name] ?? 0);
    const all = mine + survivorsServed(first, last, name);
    steadyShare = all > 0 ? mine / all : null;
  }
  const after = polls.filter((p) => p.atMs > t.injectedAtMs);
  const silent = after.find((p) => p.requests[name] === null);
  const again = silent ? after.find((p) => p.atMs > silent.atMs && p.requests[name] !== null) : undefined;
  const before = last?.requests[name];
  const across = again && before !== null && before !== undefined && again.requests[name]! >= before ? again.requests[name]! - before : null;
  return { steadyShare, silentFromMs: silent ? silent.atMs - t.injectedAtMs : null, answeredAgainAtMs: again ? again.atMs - t.injectedAtMs : null, requestsAcross: across };
}

/** CPU per second of the driver, every replica readable at both ends (and not restarted) and the proxy, between the polls nearest two times. */
function cpuPerS(polls: readonly CounterPoll[], fromMs: number, toMs: number | null): number | null {
  if (toMs === null) return null;
  const near = (ms: number) => polls.reduce<CounterPoll | null>((best, p) => (best === null || Math.abs(p.atMs - ms) < Math.abs(best.atMs - ms) ? p : best), null);
  const a = near(fromMs);
  const b = near(toMs);
  if (!a || !b || b.atMs <= a.atMs) return null;
  let ms = b.driverCpuMs - a.driverCpuMs;
  for (const [name, after] of Object.entries(b.cpuMs)) {
    const before = a.cpuMs[name];
    if (after !== null && before !== null && before !== undefined && after >= before) ms += after - before;
  }
  if (a.proxyCpuMs !== null && b.proxyCpuMs !== null && b.proxyCpuMs >= a.proxyCpuMs) ms += b.proxyCpuMs - a.proxyCpuMs;
  return (1000 * ms) / (b.atMs - a.atMs);
}

export function faultFigures(log: CallLog, polls: readonly CounterPoll[], t: FaultRunTimes): FaultFigures {
  const calls = callsOf(log);
  const slowMs = slowMsOf(calls, t);
  const byKind: Record<string, number> = {};
  let failed = 0;
  let hung = 0;
  let slow = 0;
  for (const c of calls) {
    if (c.kind === 'ok') {
      if (c.end - c.due > slowMs) slow += 1;
      continue;
    }
    byKind[c.kind] = (byKind[c.kind] ?? 0) + 1;
    if (isHung(c.kind)) hung += 1;
    else failed += 1;
  }
  const firstBad = calls.filter((c) => c.kind !== 'ok' && c.end >= t.injectedAtMs).reduce((min, c) => Math.min(min, c.end), Infinity);
  return {
    due: calls.length,
    ok: calls.length - failed - hung,
    failed,
    hung,
    slow,
    slowMs,
    byKind,
    firstFailureAfterMs: Number.isFinite(firstBad) ? firstBad - t.injectedAtMs : null,
    ...recoveryOf(calls, t, slowMs),
    survivorsCarryAfterMs: survivorsCarry(polls, t),
    faulted: faultedCounter(polls, t),
    cpuMsPerS: { steady: cpuPerS(polls, 0, t.injectedAtMs), fault: cpuPerS(polls, t.injectedAtMs, t.undoneAtMs), undone: cpuPerS(polls, t.undoneAtMs ?? t.endMs, t.undoneAtMs === null ? null : t.endMs) },
    bins: faultBins(calls),
  };
}
