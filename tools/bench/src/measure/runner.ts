import { MAX_TIMED_WARMUP_CALLS, visitBoundMs } from '../plan';
import type { ClientDriver } from './drivers/driver';
import { callFailure, describeFailure } from './failures';
import type { MachineProbe } from './machine-probe';
import { addPathCounters, NO_PATH_COUNTERS, pathCountersBetween, type Failure, type Measurement, type PathCost, type PathCounters, type PlannedCase, type RawResult, type Transport } from '../results';
import { addPathCost, combineMeasurements, pathCostBetween } from './visits';

export { MAX_TIMED_WARMUP_CALLS };

export interface RunOptions {
  /** Stops early, between calls, once aborted (Ctrl-C); what was cut short is not recorded. */
  signal?: AbortSignal;
  /** Times the machine itself just before and after each case (machine-probe.ts). */
  probe?: MachineProbe;
  /** A visit's bound (default: deadlines.ts's visitBoundMs); past it its calls are ended and fail as `bound`. */
  boundMs?: (planned: PlannedCase) => number;
  /** Reads the network stage's delayer counters (running totals), so each timed call's share is known. */
  pathMeter?: () => Promise<PathCost | null>;
  /**
   * Reads the stage's counters (the server namespace's TCP counters; a path profile's DNS queries, the
   * sidecars' requests and CPU: running totals), per timed call like pathMeter, and around each
   * transport's cold call and warm-up, so that a cell that fails keeps what its calls counted up to the failure.
   */
  pathCounters?: () => Promise<PathCounters>;
}

/**
 * A failed call's other requests may still be connecting (a burst fails at its first reset): after a
 * failure the counters are read once the server namespace's TCP counters stop moving, checked every
 * SETTLE_STEP_MS for at most this long, so what the burst did is counted to it and not to the next call.
 */
const SETTLE_AFTER_FAILURE_MS = 3_000;
const SETTLE_STEP_MS = 250;

export interface RunnerHooks {
  /** Before case `index` (0-based) of `total` starts. */
  onCaseStart?(planned: PlannedCase, index: number, total: number): void;
  /**
   * At the start of a visit, before its first call (e.g. to wait until the machine is quiet). Before the
   * warm-up rather than after it, so the timed calls follow the warm-up at once, on sockets just used.
   */
  beforeVisit?(planned: PlannedCase): Promise<void>;
  /** After each timed repetition (1-based) of the current case. */
  onRepetition?(planned: PlannedCase, repetition: number): void;
  /** After each case, one raw result per transport, succeeded or failed: the place results get written. */
  onCaseDone(results: RawResult[], index: number, total: number, planned: PlannedCase): Promise<void> | void;
}

/** The samples and costs of one transport of one case, as they accumulate. */
interface Accumulator {
  transport: Transport;
  startedAt: Date;
  measurement: Measurement | null;
  sampleOrder: number[];
  failure: Failure | null;
  delayer: PathCost | null;
  /** The stage's counters over the timed calls; null: no stage, or a reading failed. */
  counters: PathCounters | null;
  /** The same over the cold call and warm-up: part of the cell's counters only when it fails. */
  warmCounters: PathCounters | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `sofar` plus what was counted between two readings; unknown (null) once any of them is. */
function countedBetween(sofar: PathCounters | null, before: PathCounters | null, after: PathCounters | null): PathCounters | null {
  return sofar && before && after ? addPathCounters(sofar, pathCountersBetween(before, after)) : null;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/**
 * Runs every planned case through the driver and hands back raw results. Per case: each transport's
 * cold call (on a fork's first visit) and warm-up (at least `warmup` calls and `warmupMs` ms), then the timed repetitions
 * interleaved (json, grpc, json, grpc, …) so drift in the machine hits both alike. It never formats
 * and never summarizes; a failing transport is recorded with its failure and the others go on.
 */
export async function runCases(plan: readonly PlannedCase[], driver: ClientDriver, hooks: RunnerHooks, options: RunOptions = {}): Promise<RawResult[]> {
  const { signal, probe, pathMeter, pathCounters, boundMs: boundOf = (planned: PlannedCase) => visitBoundMs(planned, planned.deadlineMs) } = options;
  // A meter that cannot be read leaves the cell's path cost unknown, never fails the cell.
  const readPath = async () => (pathMeter ? await pathMeter().catch(() => null) : null);
  const readCounters = async () => (pathCounters ? await pathCounters().catch(() => null) : null);
  const readSettled = async () => {
    let reading = await readCounters();
    const until = performance.now() + SETTLE_AFTER_FAILURE_MS;
    while (reading?.tcp && performance.now() < until && !signal?.aborted) {
      await sleep(SETTLE_STEP_MS);
      const next = await readCounters();
      const still = next?.tcp && JSON.stringify(next.tcp) === JSON.stringify(reading.tcp);
      reading = next;
      if (still) break;
    }
    return reading;
  };
  const all: RawResult[] = [];
  for (let index = 0; index < plan.length && !signal?.aborted; index++) {
    const planned = plan[index];
    const { record, warmup, runs, deadlineMs } = planned;
    hooks.onCaseStart?.(planned, index, plan.length);
    // The visit's bound ends it (its calls fail as `bound`) if something hangs past every deadline.
    const boundMs = boundOf(planned);
    const bound = AbortSignal.timeout(boundMs);
    const visitSignal = signal ? AbortSignal.any([signal, bound]) : bound;
    const failureOf = (cause: unknown, prefix = ''): Failure =>
      bound.aborted ? { kind: 'bound', message: `${prefix}visit ended: it ran past its bound of ${boundMs} ms` } : callFailure(cause, prefix);
    if (hooks.beforeVisit) await hooks.beforeVisit(planned);
    if (signal?.aborted) break;
    const probeBefore = probe?.() ?? null;
    const began = performance.now();
    const call = { rows: record.rows, requests: record.requests, deadlineMs, ...(record.payload ? { payload: record.payload } : {}) };
    const accs: Accumulator[] = planned.transports.map((transport) => ({
      transport,
      startedAt: new Date(),
      measurement: null,
      sampleOrder: [],
      failure: null,
      // Known (from zero) while every reading of the meter succeeds; unknown (null) once one fails. Every
      // part starts at zero: one the meter does not report (receiveCpuMs without that thread) drops out at the first sum.
      delayer: pathMeter ? { cpuMs: 0, packets: 0, receiveCpuMs: 0 } : null,
      counters: pathCounters ? NO_PATH_COUNTERS : null,
      warmCounters: pathCounters ? NO_PATH_COUNTERS : null,
    }));

    // A reading before each transport's cold call and warm-up, and after (settled, when it failed).
    let countersReading = await readCounters();
    for (const acc of accs) {
      if (signal?.aborted) break;
      try {
        const m = await driver.runCase({ ...call, transport: acc.transport, warmup, runs: 0, cold: planned.cold }, visitSignal);
        acc.measurement = m;
        // Timed warm-up: single untimed calls until the warm-up calls (as the client timed them) add up to warmupMs.
        let spentMs = (m.coldMs ?? 0) + sum(m.warmupMs);
        for (let extra = 0; extra < MAX_TIMED_WARMUP_CALLS && spentMs < planned.warmupMs && !visitSignal.aborted; extra++) {
          const one = await driver.runCase({ ...call, transport: acc.transport, warmup: 0, runs: 1, cold: false }, visitSignal);
          m.warmupMs.push(...one.samplesMs);
          spentMs += sum(one.samplesMs);
        }
        if (bound.aborted) throw new Error('bound');
      } catch (cause) {
        if (!signal?.aborted) acc.failure = failureOf(cause);
      }
      if (pathCounters) {
        const counted = acc.failure === null ? await readCounters() : await readSettled();
        acc.warmCounters = countedBetween(acc.warmCounters, countersReading, counted);
        countersReading = counted;
      }
    }
    let position = planned.firstPosition;
    // A budget makes `runs` a ceiling: the visit stops once its timed calls (as the client timed them,
    // every transport) add up to its share, so a fake driver's scripted latencies spend it as real calls do.
    let timedMs = 0;
    const spent = (repetition: number) => planned.budgetMs !== null && repetition > planned.minRuns && timedMs >= planned.budgetMs;
    let made = 0;
    // One reading before the first timed call (the counters': the last warm-up's), then one after
    // each, failed or not: each call's share is the difference from the reading before it (nothing
    // else crosses the stage between calls).
    let pathReading = await readPath();
    for (let repetition = 1; repetition <= runs && !signal?.aborted && !spent(repetition); repetition++) {
      made = repetition;
      for (const acc of accs) {
        if (signal?.aborted) break;
        const order = position++;
        if (acc.failure !== null || acc.measurement === null) continue;
        if (planned.settleMs > 0) await sleep(planned.settleMs);
        let one: Measurement | null = null;
        try {
          if (bound.aborted) throw new Error('bound');
          one = await driver.runCase({ ...call, transport: acc.transport, warmup: 0, runs: 1, cold: false }, visitSignal);
        } catch (cause) {
          if (!signal?.aborted) acc.failure = failureOf(cause, `repetition ${repetition}: `);
        }
        // A failed call's share is its own too, not the next call's.
        const reading = await readPath();
        acc.delayer = addPathCost(acc.delayer, pathCostBetween(pathReading, reading));
        pathReading = reading;
        if (pathCounters) {
          const counted = acc.failure === null ? await readCounters() : await readSettled();
          acc.counters = countedBetween(acc.counters, countersReading, counted);
          countersReading = counted;
        }
        if (one) {
          acc.measurement = combineMeasurements(acc.measurement, one);
          acc.sampleOrder.push(order);
          timedMs += sum(one.samplesMs);
        }
      }
      hooks.onRepetition?.(planned, repetition);
    }
    if (signal?.aborted) break;

    const wallMs = performance.now() - began;
    const probeAfter = probe?.() ?? null;
    const machineProbeMs = probeBefore !== null && probeAfter !== null ? { before: probeBefore, after: probeAfter } : null;
    const results = accs.map(
      (acc): RawResult => ({
        network: planned.network,
        runtime: planned.runtime,
        security: planned.security,
        variant: planned.variant,
        case: record.id,
        transport: acc.transport,
        rows: record.rows,
        requests: record.requests,
        warmup,
        runs: made,
        blogMs: record.blogMs?.[acc.transport] ?? null,
        startedAt: acc.startedAt.toISOString(),
        wallMs,
        machineProbeMs,
        measurement: acc.failure === null ? acc.measurement : null,
        sampleOrder: acc.failure === null ? acc.sampleOrder : [],
        error: acc.failure === null ? null : describeFailure(acc.failure),
        failure: acc.failure,
        ...(pathMeter ? { delayer: acc.failure === null ? acc.delayer : null } : {}),
        // A failed cell keeps every count up to its failure: its cold call and warm-up, and its timed calls.
        ...(pathCounters ? { pathCounters: acc.failure === null ? acc.counters : acc.warmCounters && acc.counters ? addPathCounters(acc.warmCounters, acc.counters) : null } : {}),
      }),
    );
    all.push(...results);
    await hooks.onCaseDone(results, index, plan.length, planned);
  }
  return all;
}
