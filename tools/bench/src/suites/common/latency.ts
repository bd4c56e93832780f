// Pure summaries of per-call latencies, shared by the suites that time calls one by one.
import { mean, percentile } from '../../model';

export interface LatencySummary {
  n: number;
  meanMs: number;
  minMs: number;
  p50Ms: number;
  p90Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

export function summarizeLatencies(samplesMs: readonly number[]): LatencySummary {
  if (samplesMs.length === 0) throw new Error('no latencies to summarize');
  const sorted = Float64Array.from(samplesMs).sort();
  const at = (p: number) => percentile(sorted as unknown as number[], p);
  return {
    n: sorted.length,
    meanMs: mean(samplesMs),
    minMs: sorted[0],
    p50Ms: at(50),
    p90Ms: at(90),
    p95Ms: at(95),
    p99Ms: at(99),
    maxMs: sorted[sorted.length - 1],
  };
}

/**
 * The percentile curve of many samples as `points` evenly spaced quantiles (0 … 100 %): what a chart
 * draws, and what results.json keeps instead of tens of thousands of raw samples.
 */
export function quantileCurve(samplesMs: readonly number[], points = 201): number[] {
  if (samplesMs.length === 0) return [];
  const sorted = Float64Array.from(samplesMs).sort() as unknown as number[];
  return Array.from({ length: points }, (_, i) => percentile(sorted, (100 * i) / (points - 1)));
}
