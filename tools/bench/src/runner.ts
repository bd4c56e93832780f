import type { ClientDriver } from './drivers/driver';
import type { PlannedCase, RawResult } from './model';

export interface RunnerHooks {
  /** Before case `index` (0-based) of `total` starts. */
  onCaseStart?(planned: PlannedCase, index: number, total: number): void;
  /** After each case × transport, succeeded or failed: the place results get written. */
  onResult(result: RawResult, index: number, total: number): Promise<void> | void;
}

/**
 * Runs every planned case in order through the driver and hands back raw results. It never formats
 * and never summarizes; a failing case is recorded with its error and the run goes on. Stops early,
 * between cases or by aborting the one in flight, when `signal` is aborted.
 */
export async function runCases(
  plan: readonly PlannedCase[],
  driver: ClientDriver,
  hooks: RunnerHooks,
  signal?: AbortSignal,
): Promise<RawResult[]> {
  const results: RawResult[] = [];
  for (let index = 0; index < plan.length; index++) {
    if (signal?.aborted) break;
    const planned = plan[index];
    const { record, transport, warmup, runs } = planned;
    hooks.onCaseStart?.(planned, index, plan.length);
    const startedAt = new Date();
    const began = performance.now();
    let measurement: RawResult['measurement'] = null;
    let error: string | null = null;
    try {
      measurement = await driver.runCase({ transport, rows: record.rows, requests: record.requests, warmup, runs }, signal);
    } catch (cause) {
      if (signal?.aborted) break;
      error = cause instanceof Error ? cause.message : String(cause);
    }
    const result: RawResult = {
      case: record.id,
      transport,
      rows: record.rows,
      requests: record.requests,
      warmup,
      runs,
      blogMs: record.blogMs[transport],
      startedAt: startedAt.toISOString(),
      wallMs: performance.now() - began,
      measurement,
      error,
    };
    results.push(result);
    await hooks.onResult(result, index, plan.length);
  }
  return results;
}
