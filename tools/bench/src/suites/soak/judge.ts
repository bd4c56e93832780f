// bench:soak's pure parts: one load's summary, and the verdict (no errors, no memory growth).
import { percentile } from '../../results';
import type { LoadResult } from '../common/closed-loop';

export interface LoadSummary {
  target: 'server-a (HTTP/1.1 + JSON)' | 'server-b (gRPC)';
  concurrency: number;
  calls: number;
  errors: number;
  errorKinds: Record<string, number>;
  callsPerSecond: number;
  p50Ms: number | null;
  p99Ms: number | null;
}

export interface SoakVerdict {
  errorsOk: boolean;
  /** Whether the load lasted long enough to judge memory growth (MIN_RSS_JUDGE_S); when not, rssOk is true. */
  rssJudged: boolean;
  rssOk: boolean;
  /** RSS at the end ÷ RSS after warm-up, per server. */
  rssGrowth: Record<string, number>;
}

/** Maximum RSS growth over the soak that still counts as no leak. */
export const MAX_RSS_GROWTH = 1.2;

/**
 * Shortest measured load whose RSS growth is judged: in a few seconds after a short warm-up the heaps
 * are still growing to their working size (a 2-s quick soak grew > 20 % with no leak), so growth there
 * says nothing about a leak.
 */
export const MIN_RSS_JUDGE_S = 30;

export function summarizeLoad(target: LoadSummary['target'], concurrency: number, load: LoadResult): LoadSummary {
  const sorted = [...load.latenciesMs].sort((a, b) => a - b);
  return {
    target,
    concurrency,
    calls: load.calls,
    errors: load.errors,
    errorKinds: load.errorKinds,
    callsPerSecond: load.elapsedMs > 0 ? (1000 * load.calls) / load.elapsedMs : 0,
    p50Ms: sorted.length ? percentile(sorted, 50) : null,
    p99Ms: sorted.length ? percentile(sorted, 99) : null,
  };
}

/** Pure judgement of a soak: zero errors, and (when it lasted MIN_RSS_JUDGE_S) each server's RSS within +20% of its post-warm-up RSS. */
export function judgeSoak(loads: readonly LoadSummary[], rssWarm: Record<string, number>, rssEnd: Record<string, number>, durationS = MIN_RSS_JUDGE_S): SoakVerdict {
  const rssGrowth = Object.fromEntries(Object.keys(rssWarm).map((k) => [k, rssEnd[k] / rssWarm[k]]));
  const rssJudged = durationS >= MIN_RSS_JUDGE_S;
  return {
    errorsOk: loads.every((l) => l.errors === 0),
    rssJudged,
    rssOk: !rssJudged || Object.values(rssGrowth).every((g) => g <= MAX_RSS_GROWTH),
    rssGrowth,
  };
}
