import { binomialHalfCdf, madOutliers, mean, medianCi, noiseReasons, percentile, stddev, summarize } from '../../src/model/stats';

// Expected values computed independently: numpy.percentile (default "linear"), numpy.std(ddof=1),
// exact binomial sums, and the order-statistic CI tables for the median.
describe('statistics', () => {
  const oneToTen = [7, 3, 10, 1, 5, 9, 2, 8, 4, 6];

  it('summarizes 1..10 in any order', () => {
    expect(summarize(oneToTen)).toMatchObject({
      n: 10,
      median: 5.5,
      mean: 5.5,
      min: 1,
      max: 10,
      p95: expect.closeTo(9.55, 10),
      p99: null,
      stddev: expect.closeTo(3.0276503540974917, 12),
      cv: expect.closeTo(3.0276503540974917 / 5.5, 12),
      medianCi: { level: 0.95, low: 2, high: 9, coverage: 0.978515625 },
      outliers: { indices: [], values: [] },
      noisy: true,
    });
  });

  it('interpolates percentiles like numpy', () => {
    const sorted = [15, 20, 35, 40, 50];
    expect(percentile(sorted, 0)).toBe(15);
    expect(percentile(sorted, 40)).toBeCloseTo(29, 10);
    expect(percentile(sorted, 50)).toBe(35);
    expect(percentile(sorted, 95)).toBeCloseTo(48, 10);
    expect(percentile(sorted, 100)).toBe(50);
  });

  it('reports p99 only from 100 samples on', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(summarize(hundred)?.p99).toBeCloseTo(99.01, 10);
    expect(summarize(hundred.slice(0, 99))?.p99).toBeNull();
  });

  it('handles one sample and refuses none', () => {
    expect(summarize([4.2])).toMatchObject({ n: 1, median: 4.2, mean: 4.2, min: 4.2, max: 4.2, p95: 4.2, stddev: 0, cv: 0, medianCi: null });
    expect(summarize([])).toBeNull();
    expect(() => percentile([], 50)).toThrow('empty');
    expect(() => mean([])).toThrow('empty');
    expect(() => percentile([1], 101)).toThrow('outside');
  });

  it('computes the sample (n-1) standard deviation', () => {
    expect(stddev([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(2.138089935299395, 12);
  });
});

describe('confidence interval of the median', () => {
  it('sums the binomial exactly', () => {
    expect(binomialHalfCdf(5, 20)).toBeCloseTo(21700 / 1048576, 15);
    expect(binomialHalfCdf(1, 10)).toBeCloseTo(11 / 1024, 15);
    expect(binomialHalfCdf(-1, 10)).toBe(0);
    expect(binomialHalfCdf(10, 10)).toBe(1);
    expect(binomialHalfCdf(4999, 10000)).toBeCloseTo(0.496, 3);
  });

  it('uses the order statistics of the tables', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => (i + 1) * 10);
    expect(medianCi(twenty)).toEqual({ level: 0.95, low: 60, high: 150, coverage: 1 - 2 * (21700 / 1048576) });
    expect(medianCi([1, 2, 3, 4, 5, 6])).toEqual({ level: 0.95, low: 1, high: 6, coverage: 0.96875 });
    expect(medianCi([1, 2, 3, 4, 5])).toBeNull();
  });
});

describe('outliers (modified z-score on the MAD)', () => {
  it('finds a far sample and keeps the rest', () => {
    expect(madOutliers([10, 11, 12, 11, 10, 50])).toMatchObject({ indices: [5], values: [50], threshold: 3.5 });
  });

  it('falls back to the mean absolute deviation when the MAD is 0', () => {
    expect(madOutliers([5, 5, 5, 5, 5, 5, 5, 5, 5, 20]).indices).toEqual([9]);
    expect(madOutliers([5, 5, 5, 5]).indices).toEqual([]);
  });

  it('does not judge fewer than 3 samples', () => {
    expect(madOutliers([1, 1000]).indices).toEqual([]);
  });
});

describe('noise flags', () => {
  it('flags a CV above 10 % and a median under 1 ms', () => {
    expect(noiseReasons(5, 0.2)).toEqual(['CV 20% > 10%']);
    expect(noiseReasons(0.5, 0.05)).toEqual(['median < 1 ms']);
    expect(noiseReasons(50, 0.05)).toEqual([]);
    expect(summarize([100, 101, 99, 100, 100, 102])?.noisy).toBe(false);
  });
});
