import { percentile } from '../stats';
import type { LoadResult } from './load';

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
  rssOk: boolean;
  /** RSS at the end ÷ RSS after warm-up, per server. */
  rssGrowth: Record<string, number>;
}

/** Maximum RSS growth over the soak that still counts as no leak. */
export const MAX_RSS_GROWTH = 1.2;

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

/** Pure judgement of a soak: zero errors, and each server's RSS within +20% of its post-warm-up RSS. */
export function judgeSoak(loads: readonly LoadSummary[], rssWarm: Record<string, number>, rssEnd: Record<string, number>): SoakVerdict {
  const rssGrowth = Object.fromEntries(Object.keys(rssWarm).map((k) => [k, rssEnd[k] / rssWarm[k]]));
  return {
    errorsOk: loads.every((l) => l.errors === 0),
    rssOk: Object.values(rssGrowth).every((g) => g <= MAX_RSS_GROWTH),
    rssGrowth,
  };
}

export function renderSoakMarkdown(loads: readonly LoadSummary[], rssWarm: Record<string, number>, rssEnd: Record<string, number>, verdict: SoakVerdict, settings: Record<string, unknown>): string {
  const mib = (b: number) => `${(b / 1048576).toFixed(1)} MiB`;
  return [
    `# Soak: ${String(settings.startedAt)}`,
    '',
    `- ${String(settings.durationS)} s of closed-loop load after ${String(settings.warmupS)} s of warm-up, ${String(settings.rows)} row(s) per call; load generator, client-less, and both servers on this machine`,
    '',
    '| target | concurrency | calls | calls/s | p50 ms | p99 ms | errors |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...loads.map((l) => `| ${l.target} | ${l.concurrency} | ${l.calls} | ${l.callsPerSecond.toFixed(0)} | ${l.p50Ms?.toFixed(2) ?? '—'} | ${l.p99Ms?.toFixed(2) ?? '—'} | ${l.errors} |`),
    '',
    '| server | RSS after warm-up | RSS at the end | growth |',
    '|---|---:|---:|---:|',
    ...Object.keys(rssWarm).map((k) => `| ${k} | ${mib(rssWarm[k])} | ${mib(rssEnd[k])} | ${((verdict.rssGrowth[k] - 1) * 100).toFixed(1)}% |`),
    '',
    `Verdict: ${verdict.errorsOk ? 'no errors' : 'ERRORS'}; ${verdict.rssOk ? `RSS within +${((MAX_RSS_GROWTH - 1) * 100).toFixed(0)}%` : 'RSS GREW too much'}.`,
    '',
  ].join('\n');
}
