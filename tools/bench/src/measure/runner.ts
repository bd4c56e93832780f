import { MAX_TIMED_WARMUP_CALLS, visitBoundMs } from '../plan';
import type { ClientDriver } from './drivers/driver';
import { callFailure, describeFailure } from './failures';
import type { MachineProbe } from './machine-probe';
import { sharesBetween, type CpuReading } from './disturbance';
import { addPathCounters, NO_PATH_COUNTERS, pathCountersBetween, type VisitDisturbance, type Failure, type Measurement, type PathCost, type PathCounters, type Visit, type RawResult, type Transport } from '../model';
import { addPathCost, combineMeasurements, pathCostBetween } from './visits';
import { BrokerStretch, type BrokerMeters } from './broker-meter';

export { MAX_TIMED_WARMUP_CALLS };

export interface RunOptions {
  /** Stops early, between calls, once aborted (Ctrl-C); what was cut short is not recorded. */
  signal?: AbortSignal;
  /** Times the machine itself just before and after each case (machine-probe.ts). */
  probe?: MachineProbe;
  /** A visit's bound (default: deadlines.ts's visitBoundMs); past it its calls are ended and fail as `bound`. */
  boundMs?: (planned: Visit) => number;
  /** Reads the network stage's delayer counters (running totals), so each timed call's share is known. */
  pathMeter?: () => Promise<PathCost | null>;
  /**
   * Reads the counters (the TCP counters where the servers listen: a stage's server namespace, on loopback
   * the host's; a path profile's DNS queries, the sidecars' requests and CPU: running totals), per timed
   * call like pathMeter, and around each transport's cold call and warm-up, so that a cell that fails
   * keeps what its calls counted up to the failure.
   */
  pathCounters?: () => Promise<PathCounters>;
  /** Reads the machine's CPU and the run's own (disturbance.ts) at a visit's start and end: what else used the machine meanwhile. */
  cpu?: () => CpuReading | null;
  /**
   * The broker each transport goes through (none for a direct one): its counters read before a visit's
   * first timed call and after its last, its CPU around each timed call of its transport (broker-meter.ts).
   */
  brokers?: BrokerMeters;
  /** --cpu-profile: started just before each timed call, after its settle pause, and stopped just after it (run/cpu-profiles.ts); never fails a call. */
  profiler?: CallProfiler;
}

/** The profilers of a set's apps, around one timed call of one transport. */
export interface CallProfiler {
  start(planned: Visit, transport: Transport): Promise<void>;
  stop(planned: Visit, transport: Transport): Promise<void>;
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
  onVisitStart?(planned: Visit, index: number, total: number): void;
  /**
   * At the start of a visit, before its first call (e.g. to wait until the machine is quiet). Before the
   * warm-up rather than after it, so the timed calls follow the warm-up at once, on sockets just used.
   */
  beforeVisit?(planned: Visit): Promise<void>;
  /** After each timed repetition (1-based) of the current case. */
  onRepetition?(planned: Visit, repetition: number): void;
  /** After each case, one raw result per transport, succeeded or failed: the place results get written. */
  onVisitDone(results: RawResult[], index: number, total: number, planned: Visit): Promise<void> | void;
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
export async function runVisits(plan: readonly Visit[], driver: ClientDriver, hooks: RunnerHooks, options: RunOptions = {}): Promise<RawResult[]> {
  const { signal, boundMs: boundOf = (planned: Visit) => visitBoundMs(planned, planned.deadlineMs) } = options;
  const meters = new Meters(options);
  const all: RawResult[] = [];
  for (let index = 0; index < plan.length && !signal?.aborted; index++) {
    const planned = plan[index];
    hooks.onVisitStart?.(planned, index, plan.length);
    // The visit's bound ends it (its calls fail as `bound`) if something hangs past every deadline.
    const boundMs = boundOf(planned);
    const bound = AbortSignal.timeout(boundMs);
    if (hooks.beforeVisit) await hooks.beforeVisit(planned);
    if (signal?.aborted) break;
    const results = await new VisitRun(planned, driver, meters, hooks, { signal, bound, boundMs, probe: options.probe, cpu: options.cpu, brokers: options.brokers, profiler: options.profiler }).run();
    if (results === null) break;
    all.push(...results);
    await hooks.onVisitDone(results, index, plan.length, planned);
  }
  return all;
}

/** The run's meters, read around calls; a meter that cannot be read leaves its figure unknown, never fails the cell. */
class Meters {
  constructor(private readonly options: RunOptions) {}

  get path(): boolean {
    return this.options.pathMeter !== undefined;
  }

  get counters(): boolean {
    return this.options.pathCounters !== undefined;
  }

  async readPath(): Promise<PathCost | null> {
    return this.options.pathMeter ? await this.options.pathMeter().catch(() => null) : null;
  }

  async readCounters(): Promise<PathCounters | null> {
    return this.options.pathCounters ? await this.options.pathCounters().catch(() => null) : null;
  }

  /** The counters once the server namespace's TCP counters stop moving (after a failure), at most SETTLE_AFTER_FAILURE_MS. */
  async readSettled(): Promise<PathCounters | null> {
    let reading = await this.readCounters();
    const until = performance.now() + SETTLE_AFTER_FAILURE_MS;
    while (reading?.tcp && performance.now() < until && !this.options.signal?.aborted) {
      await sleep(SETTLE_STEP_MS);
      const next = await this.readCounters();
      const still = next?.tcp && JSON.stringify(next.tcp) === JSON.stringify(reading.tcp);
      reading = next;
      if (still) break;
    }
    return reading;
  }
}

/** One visit: its transports' cold calls and warm-up, then their timed repetitions interleaved, as raw results. */
class VisitRun {
  /** Ends the visit's calls at its bound, or with the run. */
  private readonly visitSignal: AbortSignal;
  private readonly call: { rows: number; requests: number; deadlineMs: number; payload?: string };
  private readonly accs: Accumulator[];
  /** The counters' last reading: each call's (or warm-up's) share is the difference from it. */
  private countersReading: PathCounters | null = null;
  /** The brokers the visit's transports go through, over its timed calls. */
  private readonly brokers: BrokerStretch;

  constructor(
    private readonly planned: Visit,
    private readonly driver: ClientDriver,
    private readonly meters: Meters,
    private readonly hooks: RunnerHooks,
    private readonly limits: { signal?: AbortSignal; bound: AbortSignal; boundMs: number; probe?: MachineProbe; cpu?: () => CpuReading | null; brokers?: BrokerMeters; profiler?: CallProfiler },
  ) {
    this.brokers = new BrokerStretch(planned.transports, limits.brokers);
    this.visitSignal = limits.signal ? AbortSignal.any([limits.signal, limits.bound]) : limits.bound;
    const { record, deadlineMs } = planned;
    this.call = { rows: record.rows, requests: record.requests, deadlineMs, ...(record.payload ? { payload: record.payload } : {}) };
    this.accs = planned.transports.map((transport) => ({
      transport,
      startedAt: new Date(),
      measurement: null,
      sampleOrder: [],
      failure: null,
      // Known (from zero) while every reading of the meter succeeds; unknown (null) once one fails. Every
      // part starts at zero: one the meter does not report (receiveCpuMs without that thread) drops out at the first sum.
      delayer: meters.path ? { cpuMs: 0, packets: 0, receiveCpuMs: 0 } : null,
      counters: meters.counters ? NO_PATH_COUNTERS : null,
      warmCounters: meters.counters ? NO_PATH_COUNTERS : null,
    }));
  }

  /** The visit's raw results, one per transport; null when the run was aborted (what was cut short is not recorded). */
  async run(): Promise<RawResult[] | null> {
    const probeBefore = this.limits.probe?.() ?? null;
    const cpuBefore = this.limits.cpu?.() ?? null;
    const startedAt = new Date().toISOString();
    const began = performance.now();
    await this.warmUp();
    const made = await this.repeat();
    if (this.limits.signal?.aborted) return null;
    const wallMs = performance.now() - began;
    const cpuAfter = this.limits.cpu?.() ?? null;
    const probeAfter = this.limits.probe?.() ?? null;
    const machineProbeMs = probeBefore !== null && probeAfter !== null ? { before: probeBefore, after: probeAfter } : null;
    const shares = cpuBefore && cpuAfter ? sharesBetween(cpuBefore, cpuAfter) : null;
    const disturbance: VisitDisturbance | null = shares && { visit: this.planned.visit, fork: this.planned.fork, startedAt, wallMs: Math.round(wallMs), ...shares };
    return this.accs.map((acc) => ({ ...this.rawResult(acc, made, wallMs, machineProbeMs), ...(this.limits.cpu ? { disturbance: [disturbance] } : {}) }));
  }

  private failureOf(cause: unknown, prefix = ''): Failure {
    return this.limits.bound.aborted ? { kind: 'bound', message: `${prefix}visit ended: it ran past its bound of ${this.limits.boundMs} ms` } : callFailure(cause, prefix);
  }

  /** The counters counted since the last reading (settled after a failure), and the new reading kept. */
  private async countersSince(failed: boolean): Promise<{ before: PathCounters | null; after: PathCounters | null }> {
    const before = this.countersReading;
    const after = failed ? await this.meters.readSettled() : await this.meters.readCounters();
    this.countersReading = after;
    return { before, after };
  }

  /** Each transport's cold call and warm-up, with a counters reading before and after each (settled, when it failed). */
  private async warmUp(): Promise<void> {
    const { warmup, cold } = this.planned;
    this.countersReading = await this.meters.readCounters();
    for (const acc of this.accs) {
      if (this.limits.signal?.aborted) break;
      try {
        const m = await this.driver.runCase({ ...this.call, transport: acc.transport, warmup, runs: 0, cold }, this.visitSignal);
        acc.measurement = m;
        // Timed warm-up: single untimed calls until the warm-up calls (as the client timed them) add up to warmupMs.
        let spentMs = (m.coldMs ?? 0) + sum(m.warmupMs);
        for (let extra = 0; extra < MAX_TIMED_WARMUP_CALLS && spentMs < this.planned.warmupMs && !this.visitSignal.aborted; extra++) {
          const one = await this.driver.runCase({ ...this.call, transport: acc.transport, warmup: 0, runs: 1, cold: false }, this.visitSignal);
          m.warmupMs.push(...one.samplesMs);
          spentMs += sum(one.samplesMs);
        }
        if (this.limits.bound.aborted) throw new Error('bound');
      } catch (cause) {
        if (!this.limits.signal?.aborted) acc.failure = this.failureOf(cause);
      }
      if (this.meters.counters) {
        const { before, after } = await this.countersSince(acc.failure !== null);
        acc.warmCounters = countedBetween(acc.warmCounters, before, after);
      }
    }
  }

  /**
   * The timed repetitions, transports interleaved; returns how many were made. A budget makes `runs` a
   * ceiling: the visit stops once its timed calls (as the client timed them, every transport) add up to
   * its share, so a fake driver's scripted latencies spend it as real calls do.
   */
  private async repeat(): Promise<number> {
    const planned = this.planned;
    let position = planned.firstPosition;
    let timedMs = 0;
    const spent = (repetition: number) => planned.budgetMs !== null && repetition > planned.minRuns && timedMs >= planned.budgetMs;
    let made = 0;
    // One reading before the first timed call (the counters': the last warm-up's), then one after
    // each, failed or not: each call's share is the difference from the reading before it (nothing
    // else crosses the stage between calls).
    await this.brokers.begin();
    let pathReading = await this.meters.readPath();
    for (let repetition = 1; repetition <= planned.runs && !this.limits.signal?.aborted && !spent(repetition); repetition++) {
      made = repetition;
      for (const acc of this.accs) {
        if (this.limits.signal?.aborted) break;
        const order = position++;
        if (acc.failure !== null || acc.measurement === null) continue;
        const one = await this.timedCall(acc, repetition);
        // A failed call's share is its own too, not the next call's.
        const reading = await this.meters.readPath();
        acc.delayer = addPathCost(acc.delayer, pathCostBetween(pathReading, reading));
        pathReading = reading;
        if (this.meters.counters) {
          const { before, after } = await this.countersSince(acc.failure !== null);
          acc.counters = countedBetween(acc.counters, before, after);
        }
        if (one) {
          acc.measurement = combineMeasurements(acc.measurement, one);
          acc.sampleOrder.push(order);
          timedMs += sum(one.samplesMs);
        }
      }
      this.hooks.onRepetition?.(planned, repetition);
    }
    await this.brokers.end();
    return made;
  }

  /** One timed call of one transport, after the settle pause; its failure is recorded on the accumulator. */
  private async timedCall(acc: Accumulator, repetition: number): Promise<Measurement | null> {
    if (this.planned.settleMs > 0) await sleep(this.planned.settleMs);
    const { profiler } = this.limits;
    await profiler?.start(this.planned, acc.transport);
    try {
      if (this.limits.bound.aborted) throw new Error('bound');
      return await this.brokers.around(acc.transport, () => this.driver.runCase({ ...this.call, transport: acc.transport, warmup: 0, runs: 1, cold: false }, this.visitSignal));
    } catch (cause) {
      if (!this.limits.signal?.aborted) acc.failure = this.failureOf(cause, `repetition ${repetition}: `);
      return null;
    } finally {
      await profiler?.stop(this.planned, acc.transport);
    }
  }

  private rawResult(acc: Accumulator, made: number, wallMs: number, machineProbeMs: RawResult['machineProbeMs']): RawResult {
    const { planned } = this;
    const { record } = planned;
    const ok = acc.failure === null;
    return {
      network: planned.network,
      runtime: planned.runtime,
      security: planned.security,
      variant: planned.variant,
      case: record.id,
      transport: acc.transport,
      rows: record.rows,
      requests: record.requests,
      warmup: planned.warmup,
      runs: made,
      blogMs: record.blogMs?.[acc.transport] ?? null,
      startedAt: acc.startedAt.toISOString(),
      wallMs,
      machineProbeMs,
      measurement: ok ? acc.measurement : null,
      sampleOrder: ok ? acc.sampleOrder : [],
      error: ok ? null : describeFailure(acc.failure!),
      failure: acc.failure,
      ...(this.meters.path ? { delayer: ok ? acc.delayer : null } : {}),
      // A failed cell keeps every count up to its failure: its cold call and warm-up, and its timed calls.
      ...(this.meters.counters ? { pathCounters: ok ? acc.counters : acc.warmCounters && acc.counters ? addPathCounters(acc.warmCounters, acc.counters) : null } : {}),
      ...(this.brokers.has(acc.transport) ? { broker: this.brokers.costOf(acc.transport) } : {}),
      visits: [{ visit: planned.visit, fork: planned.fork, calls: ok ? (acc.measurement?.samplesMs.length ?? 0) : 0 }],
    };
  }
}
