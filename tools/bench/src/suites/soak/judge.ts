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
  /** The highest RSS of the second half of the measured load ÷ the highest of the first half. */
  lateGrowth: number;
  /** The same for the heap V8 has reserved (heapTotal; null: not reported). */
  heapLateGrowth: number | null;
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
 * Largest growth of the second half's peak over the first half's that still counts as a plateau, for
 * RSS and for V8's reserved heap alike. Not the whole soak's growth: after warm-up V8 still enlarges its
 * heap to the load's working size (server-b on Node 24: heapTotal 59 → 170–210 MiB, RSS 212 → 294 MiB in
 * the first ~30 s at 1,160 calls/s, then flat for 150 s) and gives it back when the load eases, so RSS
 * steps up, and sometimes down, and then stays (docs/suites.md, bench:soak). A leak keeps growing, so the
 * second half peaks higher than the first: a leak of 20 % over the soak shows as about +10 % here.
 */
export const MAX_LATE_GROWTH = 1.1;

/** Total growth the rule before 2026-11-28 allowed (+20 % from warm-up to the end); runs recorded then are still rendered with it. */
export const MAX_RSS_GROWTH = 1.2;

/**
 * Shortest measured load whose memory growth is judged: in a few seconds after a short warm-up the heaps
 * are still growing to their working size (a 2-s quick soak grew > 20 % with no leak), so growth there
 * says nothing about a leak.
 */
export const MIN_RSS_JUDGE_S = 30;

/** Judges one server's readings over a measured load of durationS seconds (pure). */
export function judgeMemory(samples: readonly MemorySample[], durationS: number): MemoryJudgement {
  const measured = samples.filter((x) => x.t >= 0);
  if (measured.length === 0) return { growth: 1, lateGrowth: 1, heapLateGrowth: null, ok: true };
  const half = durationS / 2;
  const peak = (of: (x: MemorySample) => number, late: boolean) => Math.max(0, ...measured.filter((x) => (x.t > half) === late).map(of));
  const ratio = (of: (x: MemorySample) => number) => {
    const early = peak(of, false);
    const late = peak(of, true);
    return early > 0 && late > 0 ? late / early : null;
  };
  const lateGrowth = ratio((x) => x.rssBytes) ?? 1;
  const heapLateGrowth = ratio((x) => x.heapTotalBytes);
  return {
    growth: measured[measured.length - 1].rssBytes / measured[0].rssBytes,
    lateGrowth,
    heapLateGrowth,
    ok: lateGrowth <= MAX_LATE_GROWTH && (heapLateGrowth === null || heapLateGrowth <= MAX_LATE_GROWTH),
  };
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
 * on a plateau: neither its RSS nor V8's reserved heap peaks in the second half more than MAX_LATE_GROWTH above the first.
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
