import type { Summary } from './model';

/**
 * Percentile by linear interpolation between closest ranks (Hyndman & Fan type 7, the default of
 * numpy, R and Excel's PERCENTILE.INC), on sorted data. p in [0, 100].
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('percentile of an empty sample');
  if (p < 0 || p > 100) throw new Error(`percentile ${p} is outside [0, 100]`);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) throw new Error('mean of an empty sample');
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Sample standard deviation (n - 1 in the denominator); 0 for a single value. */
export function stddev(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  let squares = 0;
  for (const v of values) squares += (v - m) ** 2;
  return Math.sqrt(squares / (values.length - 1));
}

/** The summary every table cell is read from; null when there is nothing to summarize. */
export function summarize(samples: readonly number[]): Summary | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: percentile(sorted, 50),
    mean: mean(sorted),
    min: sorted[0],
    max: sorted[sorted.length - 1],
    p95: percentile(sorted, 95),
    stddev: stddev(sorted),
  };
}
