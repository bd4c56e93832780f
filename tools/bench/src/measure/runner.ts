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
  /** Reads a path profile's counters (DNS queries, the sidecars' requests and CPU: running totals), per timed call like pathMeter. */
  pathCounters?: () => Promise<PathCounters>;
}

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
  /** A path profile's counters over the timed calls; null: no path, or a reading failed. */
  counters: PathCounters | null;
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
    }));

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
    }
    let position = planned.firstPosition;
    // A budget makes `runs` a ceiling: the visit stops once its timed calls (as the client timed them,
    // every transport) add up to its share, so a fake driver's scripted latencies spend it as real calls do.
    let timedMs = 0;
    const spent = (repetition: number) => planned.budgetMs !== null && repetition > planned.minRuns && timedMs >= planned.budgetMs;
    let made = 0;
    // One reading before the first timed call, then one after each: each call's share is the
    // difference from the reading before it (nothing else crosses the stage between calls).
    let pathReading = await readPath();
    let countersReading = await readCounters();
    for (let repetition = 1; repetition <= runs && !signal?.aborted && !spent(repetition); repetition++) {
      made = repetition;
      for (const acc of accs) {
        if (signal?.aborted) break;
        const order = position++;
        if (acc.failure !== null || acc.measurement === null) continue;
        if (planned.settleMs > 0) await new Promise((resolve) => setTimeout(resolve, planned.settleMs));
        try {
          if (bound.aborted) throw new Error('bound');
          const one = await driver.runCase({ ...call, transport: acc.transport, warmup: 0, runs: 1, cold: false }, visitSignal);
          const reading = await readPath();
          acc.delayer = addPathCost(acc.delayer, pathCostBetween(pathReading, reading));
          pathReading = reading;
          if (pathCounters) {
            const counted = await readCounters();
            acc.counters = acc.counters && countersReading && counted ? addPathCounters(acc.counters, pathCountersBetween(countersReading, counted)) : null;
            countersReading = counted;
          }
          acc.measurement = combineMeasurements(acc.measurement, one);
          acc.sampleOrder.push(order);
          timedMs += sum(one.samplesMs);
        } catch (cause) {
          if (!signal?.aborted) acc.failure = failureOf(cause, `repetition ${repetition}: `);
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
        ...(pathCounters ? { pathCounters: acc.failure === null ? acc.counters : null } : {}),
      }),
    );
    all.push(...results);
    await hooks.onCaseDone(results, index, plan.length, planned);
  }
  return all;
}
