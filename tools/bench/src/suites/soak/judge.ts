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

/** One reading of a server's memory during the soak; t in seconds from the end of the warm-up (negative during it). */
export interface MemorySample {
  t: number;
  rssBytes: number;
  /** 0 where the server does not report its heap. */
  heapUsedBytes: number;
  heapTotalBytes: number;
  externalBytes: number;
}

/** What the soak concludes about one server's memory. */
export interface MemoryJudgement {
  /** RSS at the end ÷ RSS after warm-up (reported; not the rule). */
  growth: number;
  /** RSS over the second half of the measured load: its level at the end ÷ its level half-way (each the median of the readings within LEVEL_WINDOW_S). */
  lateGrowth: number;
  /** The heap after garbage collection: the lowest heapUsed of the last quarter ÷ the lowest of the second quarter (null: not reported). */
  heapFloorGrowth: number | null;
  ok: boolean;
}

export interface SoakVerdict {
  errorsOk: boolean;
  /** Whether the load lasted long enough, with enough readings, to judge memory (MIN_RSS_JUDGE_S); when not, rssOk is true. */
  rssJudged: boolean;
  rssOk: boolean;
  /** RSS at the end ÷ RSS after warm-up, per server. */
  rssGrowth: Record<string, number>;
  /** Per server, the rule's inputs and outcome (absent in runs before 2026-11-28, judged on rssGrowth alone). */
  memory?: Record<string, MemoryJudgement>;
}

/**
 * Largest growth over the second half of the soak that still counts as settled, for the RSS level and
 * for the heap after GC alike. Not the whole soak's growth: after warm-up V8 still enlarges its heap
 * (Node 24's young generation and old-space limits grow with the load) and the allocator keeps pages it
 * freed, so RSS steps up in the first tens of seconds and then stays (docs/suites.md, bench:soak); a
 * leak keeps growing, so it grows in the second half as in the first.
 */
export const MAX_LATE_GROWTH = 1.1;

/** Total growth reported as a warning in results.md: the rule before 2026-11-28 (+20 % over the soak). */
export const MAX_RSS_GROWTH = 1.2;

/** Readings around a point (seconds either side) whose median is the RSS level there. */
export const LEVEL_WINDOW_S = 3;

/**
 * Shortest measured load whose memory growth is judged: in a few seconds after a short warm-up the heaps
 * are still growing to their working size (a 2-s quick soak grew > 20 % with no leak), so growth there
 * says nothing about a leak.
 */
export const MIN_RSS_JUDGE_S = 30;

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The RSS level at time t: the median of the readings within LEVEL_WINDOW_S of it (the nearest reading when none is). */
function levelAt(samples: readonly MemorySample[], t: number): number {
  const near = samples.filter((x) => Math.abs(x.t - t) <= LEVEL_WINDOW_S).map((x) => x.rssBytes);
  if (near.length) return median(near);
  return samples.reduce((best, x) => (Math.abs(x.t - t) < Math.abs(best.t - t) ? x : best)).rssBytes;
}

/** Judges one server's readings over a measured load of durationS seconds (pure). */
export function judgeMemory(samples: readonly MemorySample[], durationS: number): MemoryJudgement {
  const measured = samples.filter((x) => x.t >= 0);
  if (measured.length === 0) return { growth: 1, lateGrowth: 1, heapFloorGrowth: null, ok: true };
  const first = measured[0];
  const last = measured[measured.length - 1];
  const growth = last.rssBytes / first.rssBytes;
  const lateGrowth = levelAt(measured, durationS) / levelAt(measured, durationS / 2);
  const floor = (from: number, to: number) => {
    const heaps = measured.filter((x) => x.t >= from * durationS && x.t <= to * durationS && x.heapUsedBytes > 0).map((x) => x.heapUsedBytes);
    return heaps.length ? Math.min(...heaps) : null;
  };
  const early = floor(0.25, 0.5);
  const late = floor(0.75, 1.01);
  const heapFloorGrowth = early !== null && late !== null ? late / early : null;
  return { growth, lateGrowth, heapFloorGrowth, ok: lateGrowth <= MAX_LATE_GROWTH && (heapFloorGrowth === null || heapFloorGrowth <= MAX_LATE_GROWTH) };
}

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

/**
 * Pure judgement of a soak: zero errors, and (when it lasted MIN_RSS_JUDGE_S) each server's memory
 * settled: neither its RSS nor its heap after GC grew by more than MAX_LATE_GROWTH over the second half.
 */
export function judgeSoak(loads: readonly LoadSummary[], memory: Record<string, readonly MemorySample[]>, durationS = MIN_RSS_JUDGE_S): SoakVerdict {
  const judged = Object.fromEntries(Object.entries(memory).map(([k, samples]) => [k, judgeMemory(samples, durationS)]));
  const enough = Object.values(memory).every((samples) => samples.filter((x) => x.t >= 0).length >= 4);
  const rssJudged = durationS >= MIN_RSS_JUDGE_S && enough;
  return {
    errorsOk: loads.every((l) => l.errors === 0),
    rssJudged,
    rssOk: !rssJudged || Object.values(judged).every((j) => j.ok),
    rssGrowth: Object.fromEntries(Object.entries(judged).map(([k, j]) => [k, j.growth])),
    memory: judged,
  };
}
