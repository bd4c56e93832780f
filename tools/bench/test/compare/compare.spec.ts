import { withRuntimes } from '../../src/model/results';
import { COMPARE_KIT_SOURCE, compareKit, type CellComparison, type ComparableSummary } from '../../src/compare/compare';
import { summarize } from '../../src/model/stats';

const kit = compareKit();

function summary(samples: number[]): ComparableSummary {
  return summarize(samples)!;
}

// Expected values from scipy.stats (an independent implementation).
describe("Welch's t-test", () => {
  it('matches scipy.stats.ttest_ind(equal_var=False)', () => {
    const a = summary([27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4]);
    const b = summary([27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4]);
    const r = kit.welch(a, b)!;
    expect(r.t).toBeCloseTo(-2.455356398286006, 10);
    expect(r.df).toBeCloseTo(24.988529290231416, 9);
    expect(r.p).toBeCloseTo(0.021378001462866992, 10);

    const c = kit.welch(summary([10.1, 10.3, 9.9, 10.0, 10.2, 10.4]), summary([10.2, 10.6, 10.5, 10.3, 10.7]))!;
    expect(c.t).toBeCloseTo(-2.5803485451230532, 10);
    expect(c.df).toBeCloseTo(8.235482737415449, 9);
    expect(c.p).toBeCloseTo(0.03184046896577582, 10);
  });

  it("matches Student's t tail probabilities", () => {
    expect(kit.studentTwoSidedP(2.0, 3)).toBeCloseTo(0.13932596855884305, 10);
    expect(kit.studentTwoSidedP(0.5, 30.5)).toBeCloseTo(0.6206635239145257, 10);
    expect(kit.studentTwoSidedP(0, 10)).toBeCloseTo(1, 12);
  });

  it('is undefined with fewer than two samples and decisive with zero variance', () => {
    expect(kit.welch(summary([1]), summary([1, 2]))).toBeNull();
    expect(kit.welch(summary([2, 2]), summary([2, 2]))?.p).toBe(1);
    expect(kit.welch(summary([2, 2]), summary([3, 3]))?.p).toBe(0);
  });
});

describe('compareRuns', () => {
  const cell = (c: string, transport: string, samples: number[], ok = true) => ({ case: c, transport, ok, summary: ok ? summary(samples) : null });

  it('compares matching ok cells with a ratio, its uncertainty and significance', () => {
    const base = { results: [cell('①-2', 'json', [100, 101, 99, 100, 102, 98, 100, 101, 99, 100]), cell('①-3', 'grpc', [1, 2, 3], false)] };
    const head = {
      results: [cell('①-2', 'json', [132, 133, 131, 132, 134, 130, 132, 133, 131, 132]), cell('①-3', 'grpc', [1, 2, 3]), cell('②-1', 'json', [1, 2])],
    };
    const rows = kit.compareRuns(base, head);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({ case: '①-2', transport: 'json', baseMedian: 100, headMedian: 132, significant: true, ciOverlap: false });
    expect(row.ratio).toBeCloseTo(1.32, 10);
    expect(row.ratioError).toBeGreaterThan(0);
    expect(row.ratioError).toBeLessThan(0.05);
    expect(row.verdict).toMatch(/^1\.32 ± 0\.0\d times slower$/);
    expect(row.pValue).toBeLessThan(1e-6);
  });

  it('calls a faster head faster, and equal runs not significant', () => {
    const samples = [10, 11, 9, 10, 10, 11, 9, 10];
    const base = { results: [cell('x', 'grpc', samples.map((v) => v * 2))] };
    expect(kit.compareRuns(base, { results: [cell('x', 'grpc', samples)] })[0].verdict).toMatch(/^2\.00 ± \d\.\d\d times faster$/);
    const same = kit.compareRuns({ results: [cell('x', 'grpc', samples)] }, { results: [cell('x', 'grpc', samples)] })[0];
    expect(same).toMatchObject({ ratio: 1, significant: false, ciOverlap: true, pValue: 1 });
  });

  it('sets the machine probe ratio beside each cell when both runs probed the machine', () => {
    const samples = [10, 11, 9, 10, 10, 11, 9, 10];
    const probed = (before: number, after: number) => ({ ...cell('x', 'grpc', samples), machineProbeMs: { before, after } });
    expect(kit.compareRuns({ results: [probed(6, 8)] }, { results: [probed(9, 12)] })[0].machineRatio).toBeCloseTo(1.5, 10);
    expect(kit.compareRuns({ results: [cell('x', 'grpc', samples)] }, { results: [probed(9, 12)] })[0].machineRatio).toBeNull();
    expect(kit.compareRuns({ results: [probed(0, 8)] }, { results: [probed(9, 12)] })[0].machineRatio).toBeNull();
  });

  it('works when inlined as source text, as the index page does', () => {
    const inlined = new Function(`return (${COMPARE_KIT_SOURCE})();`)() as ReturnType<typeof compareKit>;
    const base = { results: [cell('①-2', 'json', [100, 101, 99, 100, 102, 98])] };
    const head = { results: [cell('①-2', 'json', [150, 151, 149, 150, 152, 148])] };
    expect(inlined.compareRuns(base, head)).toEqual(kit.compareRuns(base, head));
  });
});

describe('agreement', () => {
  const { agreement, describeAgreement } = kit;
  const cell = (id: string, baseMedian: number, headMedian: number, variant = 'blog'): CellComparison => ({
    runtime: '24', variant, case: id, transport: 'json', baseMedian, headMedian, ratio: headMedian / baseMedian, ratioError: 0,
    pValue: null, significant: false, ciOverlap: null, verdict: '', machineRatio: null,
  });

  it('judges cells ≥ 20 ms in either run and names those more than 10% apart, furthest first (the README pair 17-36-49Z / 17-45-20Z)', () => {
    const rows = [cell('①-1', 1.629, 1.539), cell('①-2', 32.3, 33.1), cell('①-3', 9481, 8313), cell('②-2', 39.4, 33.4), cell('②-2g', 17.9, 14.2), cell('20k×4', 801.2, 900.6)];
    const a = agreement(rows);
    expect(a.judged).toBe(4);
    expect(a.apart.map((c) => `${c.case} ${c.difference.toFixed(3)}`)).toEqual(['②-2 0.180', '①-3 0.141', '20k×4 0.124']);
    expect(describeAgreement(a)).toBe('Agreement: 1 of 4 cells with a median ≥ 20 ms are within 10%; apart: ②-2 json 18%, ①-3 json 14%, 20k×4 json 12%.');
    expect(describeAgreement(agreement([cell('②-2', 39.4, 33.4, 'tuned')]))).toContain('apart: tuned ②-2 json 18%');
  });

  it('pairs cells by variant, case and transport: a tuned cell is never compared with a blog one', () => {
    const summary = (median: number) => ({ n: 10, median, mean: median, stddev: 1, medianCi: null });
    const run = (variant: string | undefined, median: number) => ({ results: [{ ...(variant ? { variant } : {}), case: '①-2', transport: 'json', ok: true, summary: summary(median) }] });
    expect(kit.compareRuns(run('blog', 30), run('tuned', 20))).toEqual([]);
    expect(kit.compareRuns(run(undefined, 30), run('blog', 20))).toMatchObject([{ variant: 'blog', case: '①-2', baseMedian: 30, headMedian: 20 }]);
    const both = { results: [...run('blog', 30).results, ...run('tuned', 10).results] };
    expect(kit.compareRuns(both, both).map((r) => `${r.variant}:${r.baseMedian}`)).toEqual(['blog:30', 'tuned:10']);
  });

  it('pairs cells by runtime: a cell on Node 20 is never compared with one on Node 24; a run from before --node is labelled from its provenance', () => {
    const summary = (median: number) => ({ n: 10, median, mean: median, stddev: 1, medianCi: null });
    const on = (runtime: string | undefined, median: number) => ({ ...(runtime ? { runtime } : {}), case: '①-2', transport: 'json', ok: true, summary: summary(median) });
    expect(kit.compareRuns({ results: [on('20', 30)] }, { results: [on('24', 20)] })).toEqual([]);
    const both = { results: [on('20', 30), on('24', 10)] };
    expect(kit.compareRuns(both, { results: [on('24', 12), on('20', 33)] }).map((r) => `${r.runtime}:${r.baseMedian}→${r.headMedian}`)).toEqual(['24:10→12', '20:30→33']);
    // readRun labels an older run's cells with the Node its provenance recorded (results.ts withRuntimes).
    const legacy = withRuntimes([on(undefined, 30)], { client: { node: 'v20.20.2' } });
    expect(kit.compareRuns({ results: legacy }, both).map((r) => r.runtime)).toEqual(['20']);
  });

  it('says so when every judged cell agrees, or when none is slow enough to judge', () => {
    expect(describeAgreement(agreement([cell('①-2', 30, 32), cell('①-1', 1, 2)]))).toBe('Agreement: 1 of 1 cells with a median ≥ 20 ms are within 10%.');
    expect(describeAgreement(agreement([cell('①-1', 1, 2)]))).toBe('Agreement: no cell has a median of 20 ms or more.');
    // Exactly 10% apart is within.
    expect(agreement([cell('x', 100, 110)]).apart).toEqual([]);
  });
});
