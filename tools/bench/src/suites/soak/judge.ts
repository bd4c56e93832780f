// bench:soak's pure parts: one load's summary, and the verdict (no errors, no memory growth).
import { percentile } from '../../model';
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
  /** The highest RSS of the second half of the measured load ÷ the highest of the first half (reported; the rule where the heap is not reported). */
  lateGrowth: number;
  /**
   * Live heap: the lowest heap in use of the second half minus the lowest of the first half (the floor,
   * garbage collected), as a share of RSS after warm-up; null where the heap is not reported.
   */
  liveHeapGrowth: number | null;
  /** The same for external memory (Buffers and other native memory held by JS objects); null where not reported. */
  externalGrowth: number | null;
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
 * Largest growth from the first half of the measured load to the second that is not a leak, as a share
 * of the server's RSS after warm-up, for its live heap and for its external memory alike (and
 * for RSS itself, second half's peak ÷ first half's, where a server does not report its heap). Not RSS
 * from warm-up to the end: V8 enlarges the heap it reserves to the load's working size, in steps, and
 * gives it back when the load eases (server-b on Node 24: 59 → 170–210 MiB reserved in the first ~30 s;
 * server-a at 6,000 calls/s: 68 → 104 MiB over 90 s, RSS +28 %, while the heap in use stayed between 39
 * and 58 MiB), so RSS steps up, and sometimes down, with nothing retained (docs/suites.md, bench:soak).
 * A leak retains: the heap's floor (or external memory's) is higher in the second half than in the first.
 * RSS minus the reserved heap is no measure of native memory: reserved pages become resident only when
 * touched, and a shrunk heap's pages stay resident a while (it moved by ±25 % in flat runs).
 */
export const MAX_LATE_GROWTH = 0.1;

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
  if (measured.length === 0) return { growth: 1, lateGrowth: 1, liveHeapGrowth: null, externalGrowth: null, ok: true };
  const half = durationS / 2;
  const halves = [measured.filter((x) => x.t <= half), measured.filter((x) => x.t > half)];
  const warm = measured[0].rssBytes;
  const peakRss = halves.map((h) => Math.max(0, ...h.map((x) => x.rssBytes)));
  const lateGrowth = peakRss[0] > 0 && peakRss[1] > 0 ? peakRss[1] / peakRss[0] : 1;
  const reportsHeap = measured.every((x) => x.heapUsedBytes > 0) && halves.every((h) => h.length > 0);
  const floorOf = (h: readonly MemorySample[], of: (x: MemorySample) => number) => Math.min(...h.map(of));
  const floorGrowth = (of: (x: MemorySample) => number) => (reportsHeap ? (floorOf(halves[1], of) - floorOf(halves[0], of)) / warm : null);
  const liveHeapGrowth = floorGrowth((x) => x.heapUsedBytes);
  const externalGrowth = floorGrowth((x) => x.externalBytes);
  const ok =
    liveHeapGrowth !== null && externalGrowth !== null
      ? liveHeapGrowth <= MAX_LATE_GROWTH && externalGrowth <= MAX_LATE_GROWTH
      : lateGrowth <= 1 + MAX_LATE_GROWTH;
  return { growth: measured[measured.length - 1].rssBytes / warm, lateGrowth, liveHeapGrowth, externalGrowth, ok };
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
 * retaining nothing: neither its live heap nor its external memory grew from the first half to the second by
 * more than MAX_LATE_GROWTH of its RSS.
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
