import type { MedianCi, Outliers, Summary } from './model';

/** A cell is flagged noisy above this coefficient of variation… */
export const NOISY_CV = 0.1;
/** …or below this median (ms): timer and scheduler noise dominate sub-millisecond calls. */
export const NOISY_BELOW_MS = 1;
/** p99 is only reported from this many samples on; below it, it is an interpolation between maxima. */
export const P99_MIN_SAMPLES = 100;
/** Modified z-score above which a sample is an outlier (Iglewicz & Hoaglin). */
export const OUTLIER_Z = 3.5;

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

/** The median of values in any order. */
export function median(values: readonly number[]): number {
  return percentile([...values].sort((a, b) => a - b), 50);
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

/** P(X ≤ k) for X ~ Binomial(n, 1/2), summed in log space so large n does not underflow. */
export function binomialHalfCdf(k: number, n: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  let logTerm = -n * Math.LN2; // log C(n, 0) / 2^n
  let total = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log((n - i + 1) / i);
    total += Math.exp(logTerm);
  }
  return Math.min(1, total);
}

/**
 * Distribution-free confidence interval of the median from order statistics: the widest-coverage-safe
 * [x(k), x(n-k+1)] with P(Bin(n, ½) ≤ k-1) ≤ (1-level)/2. Needs n ≥ 6 for 95 %; null below that.
 * Makes no assumption about the shape of the latency distribution (which is rarely normal).
 */
export function medianCi(sorted: readonly number[], level = 0.95): MedianCi | null {
  const n = sorted.length;
  const tail = (1 - level) / 2;
  let k = 0;
  while (k + 1 <= n / 2 && binomialHalfCdf(k, n) <= tail) k++;
  if (k === 0) return null;
  const coverage = 1 - 2 * binomialHalfCdf(k - 1, n);
  return { level, low: sorted[k - 1], high: sorted[n - k], coverage };
}

/**
 * Outliers by the modified z-score 0.6745·(x − median)/MAD (median absolute deviation), robust to the
 * outliers themselves. They are reported, never dropped. When MAD is 0 the mean absolute deviation
 * (scaled by 1.2533) stands in, as Iglewicz & Hoaglin suggest.
 */
export function madOutliers(values: readonly number[], threshold = OUTLIER_Z): Outliers {
  const none: Outliers = { method: 'modified z-score (MAD)', threshold, indices: [], values: [] };
  if (values.length < 3) return none;
  const sorted = [...values].sort((a, b) => a - b);
  const med = percentile(sorted, 50);
  const deviations = values.map((v) => Math.abs(v - med));
  const mad = percentile([...deviations].sort((a, b) => a - b), 50);
  const scale = mad > 0 ? mad / 0.6745 : 1.253314 * mean(deviations);
  if (!(scale > 0)) return none;
  const indices = values.flatMap((v, i) => (Math.abs(v - med) / scale > threshold ? [i] : []));
  return { ...none, indices, values: indices.map((i) => values[i]) };
}

/** Why a cell's decimals should not be trusted, if they should not. */
export function noiseReasons(median: number, cv: number): string[] {
  const reasons: string[] = [];
  if (cv > NOISY_CV) reasons.push(`CV ${(cv * 100).toFixed(0)}% > ${NOISY_CV * 100}%`);
  if (median < NOISY_BELOW_MS) reasons.push(`median < ${NOISY_BELOW_MS} ms`);
  return reasons;
}

/** The summary every table cell is read from; null when there is nothing to summarize. */
export function summarize(samples: readonly number[]): Summary | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const m = mean(sorted);
  const sd = stddev(sorted);
  const median = percentile(sorted, 50);
  const cv = m > 0 ? sd / m : 0;
  const noise = noiseReasons(median, cv);
  return {
    n: sorted.length,
    median,
    mean: m,
    min: sorted[0],
    max: sorted[sorted.length - 1],
    p95: percentile(sorted, 95),
    p99: sorted.length >= P99_MIN_SAMPLES ? percentile(sorted, 99) : null,
    stddev: sd,
    cv,
    medianCi: medianCi(sorted),
    outliers: madOutliers(samples),
    noisy: noise.length > 0,
    noise,
  };
}

/** A confidence interval of a ratio of two medians, from a percentile bootstrap. */
export interface RatioCi {
  level: number;
  low: number;
  high: number;
  /** Bootstrap resamples drawn. */
  resamples: number;
}

/** Fewest samples on each side for a bootstrap CI of a ratio of medians (below it the resampled medians take a handful of values). */
export const RATIO_CI_MIN_SAMPLES = 5;

/** A small seeded generator (mulberry32), so the same results always give the same interval. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Percentile-bootstrap CI of median(a) ÷ median(b): each sample set resampled with replacement on its
 * own (the two cells are independent sets of calls), `resamples` times, and the ratio's (1−level)/2
 * and (1+level)/2 quantiles taken. Seeded, so a report rendered twice says the same. Null with fewer
 * than RATIO_CI_MIN_SAMPLES samples on either side, or a median of 0 in the denominator.
 */
export function ratioOfMediansCi(a: readonly number[], b: readonly number[], level = 0.95, resamples = 2000, seed = 23): RatioCi | null {
  if (a.length < RATIO_CI_MIN_SAMPLES || b.length < RATIO_CI_MIN_SAMPLES) return null;
  const random = seeded(seed);
  const resampledMedian = (values: readonly number[], scratch: number[]): number => {
    for (let i = 0; i < values.length; i++) scratch[i] = values[Math.floor(random() * values.length)];
    scratch.sort((x, y) => x - y);
    return percentile(scratch, 50);
  };
  const scratchA = new Array<number>(a.length);
  const scratchB = new Array<number>(b.length);
  const ratios: number[] = [];
  for (let i = 0; i < resamples; i++) {
    const denominator = resampledMedian(b, scratchB);
    const numerator = resampledMedian(a, scratchA);
    if (denominator > 0) ratios.push(numerator / denominator);
  }
  if (ratios.length < resamples / 2) return null;
  ratios.sort((x, y) => x - y);
  return { level, low: percentile(ratios, ((1 - level) / 2) * 100), high: percentile(ratios, ((1 + level) / 2) * 100), resamples };
}
