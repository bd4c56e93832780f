// How long anything in a run may take. Every call has a deadline derived from its case, every visit a
// bound derived from its calls, and the run a bound that is their sum: a server that accepts and never
// answers ends as failed cells within the bound printed at the start, never as a hang.
import type { CaseRecord, Visit } from '../model';

/**
 * A call's deadline: a floor for connection set-up and a slow machine, plus time for every row the call
 * moves (rows × requests). ①-1 and ②-3 get 10 s, 20k×4 18 s, ①-3 (1,000,000 rows: 7–18 s here on
 * loopback) 110 s. Across a network a row also costs RTT: HTTP/2 with a 64 KiB window moves ~37 KB
 * (~140–250 rows) per round trip, so 0.01 ms per row per ms of RTT (①-3 at 20 ms RTT: 310 s).
 * The apps' own CALL_TIMEOUT_MS (120 s) is only for callers other than the bench.
 */
export const DEADLINE_RULE = Object.freeze({ floorMs: 10_000, perRowMs: 0.1, perRowPerRttMs: 0.01 });

/** What one request to the client app may take beyond its calls (HTTP, JSON, server metrics reads). */
export const REQUEST_OVERHEAD_MS = 30_000;

/** A set of apps has this long to report itself ready (apps.ts), and this long to stop. */
export const START_BOUND_MS = 60_000;
export const STOP_BOUND_MS = 5_000;

/** Building one network stage and calibrating it (network/stage/stage.ts), at most; past it the network's cells fail. */
export const STAGE_BOUND_MS = 300_000;

/** The quiet wait before a visit (quiesce.ts) and the machine probe around it, at most. */
export const VISIT_SETUP_MS = 10_000;

/** Times a set of apps may be started again after it died or stopped answering (settings.restarts). */
export const RESTARTS_PER_SET = 1;

export function callDeadlineMs(record: Pick<CaseRecord, 'rows' | 'requests'>, override: number | null = null, rttMs = 0): number {
  const rows = record.rows * record.requests;
  return override ?? Math.round(DEADLINE_RULE.floorMs + DEADLINE_RULE.perRowMs * rows + DEADLINE_RULE.perRowPerRttMs * rows * rttMs);
}

/** Calls one POST /bench/run makes: the cold call, the warm-up calls, the timed calls. */
export function callsOf(call: { cold: boolean; warmup: number; runs: number }): number {
  return (call.cold ? 1 : 0) + call.warmup + call.runs;
}

/** How long the bench waits for the client's answer to one request of `calls` calls. */
export function requestBoundMs(calls: number, deadlineMs: number): number {
  return Math.max(1, calls) * deadlineMs + REQUEST_OVERHEAD_MS;
}

/** Timed warm-up calls a transport makes at most after its first request (runner.ts). */
export const MAX_TIMED_WARMUP_CALLS = 500;

/**
 * The longest a visit can take if every call runs to its deadline, per transport: the first request
 * (cold call + warm-up calls), the timed warm-up (until warmupMs has passed, bounded in calls), one
 * request per timed run; plus the quiet wait and probe. Past it the runner ends the visit.
 */
export function visitBoundMs(planned: Visit, deadlineMs: number): number {
  const first = requestBoundMs(callsOf({ cold: planned.cold, warmup: planned.warmup, runs: 0 }), deadlineMs);
  const warmup = planned.warmupMs > 0 ? planned.warmupMs + deadlineMs + MAX_TIMED_WARMUP_CALLS * 50 : 0;
  const timed = planned.runs * requestBoundMs(1, deadlineMs);
  return planned.transports.length * (first + warmup + timed) + VISIT_SETUP_MS;
}

/**
 * Upper bound of a whole run: every visit at its bound, every set of apps started (and restarted once)
 * at its start bound and stopped at its stop bound, every network stage built and calibrated at its
 * bound. Sets: how many sets of apps the plan starts; stages: how many network stages.
 */
export function runBoundMs(plan: readonly Visit[], deadlineOf: (planned: Visit) => number, sets: number, stages = 0): number {
  const visits = plan.reduce((sum, planned) => sum + visitBoundMs(planned, deadlineOf(planned)), 0);
  return visits + sets * (1 + RESTARTS_PER_SET) * (START_BOUND_MS + STOP_BOUND_MS) + stages * STAGE_BOUND_MS;
}

/** `work`, or a rejection saying `what` ran past `boundMs` (the work itself is left to finish on its own). */
export function withinBound<T>(work: Promise<T>, boundMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} ran past its bound of ${Math.round(boundMs / 1000)} s`)), boundMs);
  });
  return Promise.race([work, bound]).finally(() => clearTimeout(timer));
}
