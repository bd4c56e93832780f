import { mean, percentile, stddev, summarize } from '../src/stats';

// Expected values computed independently (numpy.percentile default "linear", numpy.std ddof=1).
describe('statistics', () => {
  const oneToTen = [7, 3, 10, 1, 5, 9, 2, 8, 4, 6];

  it('summarizes 1..10 in any order', () => {
    expect(summarize(oneToTen)).toEqual({
      n: 10,
      median: 5.5,
      mean: 5.5,
      min: 1,
      max: 10,
      p95: expect.closeTo(9.55, 10),
      stddev: expect.closeTo(3.0276503540974917, 12),
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

  it('handles one sample and refuses none', () => {
    expect(summarize([4.2])).toEqual({ n: 1, median: 4.2, mean: 4.2, min: 4.2, max: 4.2, p95: 4.2, stddev: 0 });
    expect(summarize([])).toBeNull();
    expect(() => percentile([], 50)).toThrow('empty');
    expect(() => mean([])).toThrow('empty');
    expect(() => percentile([1], 101)).toThrow('outside');
  });

  it('computes the sample (n-1) standard deviation', () => {
    expect(stddev([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(2.138089935299395, 12);
  });
});
