import type { ClientDriver } from './drivers/driver';
import type { MachineProbe } from './machine-probe';
import type { Measurement, PlannedCase, RawResult, Transport } from './model';
import { combineMeasurements } from './visits';

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
  error: string | null;
}

/** Bound on the timed warm-up's calls, whatever their speed (a sub-millisecond case would otherwise make thousands). */
export const MAX_TIMED_WARMUP_CALLS = 500;

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function errorText(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * Runs every planned case through the driver and hands back raw results. Per case: each transport's
 * cold call (on a fork's first visit) and warm-up (at least `warmup` calls and `warmupMs` ms), then the timed repetitions
 * interleaved (json, grpc, json, grpc, …) so drift in the machine hits both alike. It never formats
 * and never summarizes; a failing transport is recorded with its error and the others go on. Stops
 * early when `signal` is aborted. `probe`, when given, times the machine itself just before and after
 * each case (machine-probe.ts).
 */
export async function runCases(
  plan: readonly PlannedCase[],
  driver: ClientDriver,
  hooks: RunnerHooks,
  signal?: AbortSignal,
  probe?: MachineProbe,
): Promise<RawResult[]> {
  const all: RawResult[] = [];
  for (let index = 0; index < plan.length && !signal?.aborted; index++) {
    const planned = plan[index];
    const { record, warmup, runs } = planned;
    hooks.onCaseStart?.(planned, index, plan.length);
    if (hooks.beforeVisit) await hooks.beforeVisit(planned);
    if (signal?.aborted) break;
    const probeBefore = probe?.() ?? null;
    const began = performance.now();
    const call = { rows: record.rows, requests: record.requests, ...(record.payload ? { payload: record.payload } : {}) };
    const accs: Accumulator[] = planned.transports.map((transport) => ({
      transport,
      startedAt: new Date(),
      measurement: null,
      sampleOrder: [],
      error: null,
    }));

    for (const acc of accs) {
      if (signal?.aborted) break;
      try {
        const m = await driver.runCase({ ...call, transport: acc.transport, warmup, runs: 0, cold: planned.cold }, signal);
        acc.measurement = m;
        // Timed warm-up: single untimed calls until the warm-up calls (as the client timed them) add up to warmupMs.
        let spentMs = (m.coldMs ?? 0) + sum(m.warmupMs);
        for (let extra = 0; extra < MAX_TIMED_WARMUP_CALLS && spentMs < planned.warmupMs && !signal?.aborted; extra++) {
          const one = await driver.runCase({ ...call, transport: acc.transport, warmup: 0, runs: 1, cold: false }, signal);
          m.warmupMs.push(...one.samplesMs);
          spentMs += sum(one.samplesMs);
        }
      } catch (cause) {
        if (!signal?.aborted) acc.error = errorText(cause);
      }
    }
    let position = planned.firstPosition;
    for (let repetition = 1; repetition <= runs && !signal?.aborted; repetition++) {
      for (const acc of accs) {
        if (signal?.aborted) break;
        const order = position++;
        if (acc.error !== null || acc.measurement === null) continue;
        if (planned.settleMs > 0) await new Promise((resolve) => setTimeout(resolve, planned.settleMs));
        try {
          const one = await driver.runCase({ ...call, transport: acc.transport, warmup: 0, runs: 1, cold: false }, signal);
          acc.measurement = combineMeasurements(acc.measurement, one);
          acc.sampleOrder.push(order);
        } catch (cause) {
          if (!signal?.aborted) acc.error = `repetition ${repetition}: ${errorText(cause)}`;
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
        variant: planned.variant,
        case: record.id,
        transport: acc.transport,
        rows: record.rows,
        requests: record.requests,
        warmup,
        runs,
        blogMs: record.blogMs?.[acc.transport] ?? null,
        startedAt: acc.startedAt.toISOString(),
        wallMs,
        machineProbeMs,
        measurement: acc.error === null ? acc.measurement : null,
        sampleOrder: acc.error === null ? acc.sampleOrder : [],
        error: acc.error,
      }),
    );
    all.push(...results);
    await hooks.onCaseDone(results, index, plan.length, planned);
  }
  return all;
}
