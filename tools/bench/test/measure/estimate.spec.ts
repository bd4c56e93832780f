import { BOUND_SHOWN_WITHIN, describeEstimate, estimateRun, type CostModel } from '../../src/measure/estimate';
import type { Cell, RunDocument } from '../../src/model/model';
import type { StoredRun } from '../../src/model/runs';
import { handMadeCell } from '../hand-made-cell';
import { plannedVisit as visit } from '../planned-visit';

/** A model that would be far off: 1 s a visit, 2.5 s a set of apps. */
const MODEL: CostModel = { visitMs: () => 1_000, setStartMs: 2_500, stageBuildMs: 15_000 };

/**
 * A past run of ①-2 in one set of apps: each transport's calls take `callMs` (cold call 2×, one warm-up
 * call), the visit 100 ms more than its calls, and the run `outsideMs` outside its one visit.
 */
function pastRun(name: string, callMs: number, outsideMs: number): StoredRun {
  const cell = (transport: 'json' | 'grpc'): Cell =>
    handMadeCell({ network: 'loopback', case: '①-2', transport, samplesMs: [callMs, callMs, callMs], warmupMs: [callMs], coldMs: 2 * callMs, runs: 3, wallMs: 2 * 6 * callMs + 100 });
  const results = [cell('json'), cell('grpc')];
  const startedAt = new Date(Date.UTC(2026, 10, 25, 12));
  const doc = {
    schemaVersion: 1,
    incomplete: false,
    provenance: { finishedAt: new Date(startedAt.getTime() + results[0].wallMs + outsideMs).toISOString(), networks: { loopback: { calibration: null } } },
    settings: { startedAt: startedAt.toISOString(), startedApps: { blog: [{}] }, visitsDone: { 'loopback/blog ①-2 json on Node 24': 1, 'loopback/blog ①-2 grpc on Node 24': 1 } },
    results,
  } as unknown as RunDocument;
  return { dir: `/results/${name}`, name, doc };
}

describe('estimateRun: how long a run takes, from the last runs in the results folder', () => {
  it('with no history: the model alone, and says so', () => {
    const estimate = estimateRun([visit('①-2'), visit('①-1')], 1, 0, [], MODEL);
    expect(estimate).toEqual({ ms: 2 * 1_000 + 2_500, spreadMs: null, runs: [], measuredVisits: 0, visits: 2, visitMs: [1_000, 1_000], outsideMs: 2_500 });
    expect(describeEstimate(estimate, 1e9, 'results')).toBe(
      "expected ≈ 5s (from the blog's figures: no earlier run in results/ measured these cells, so this one calibrates the next)",
    );
  });

  it("costs a visit from the cell's past calls, at this plan's runs: calls × runs + cold + warm-up + the visit's time aside", () => {
    // 10 ms a call: 5 runs × (10 + 10) + per transport (cold 20 + 1 warm-up × 10) + 100 ms aside; one set that took 4 s, not 2.5.
    const estimate = estimateRun([visit('①-2', { runs: 5 })], 1, 0, [pastRun('2026-11-25T12-00-00Z', 10, 4_000)], MODEL);
    expect(estimate.ms).toBeCloseTo(5 * 20 + 2 * 30 + 100 + 4_000, 6);
    expect(estimate).toMatchObject({ spreadMs: null, runs: ['2026-11-25T12-00-00Z'], measuredVisits: 1, visits: 1 });
  });

  it('takes the median over the past runs and ± half the gap between the fastest and the slowest', () => {
    const history = [pastRun('2026-11-25T10-00-00Z', 10, 2_500), pastRun('2026-11-25T11-00-00Z', 20, 5_000), pastRun('2026-11-25T12-00-00Z', 40, 10_000)];
    const estimate = estimateRun([visit('①-2', { runs: 5 })], 1, 0, history, MODEL);
    const cost = (call: number) => 5 * 2 * call + 2 * 3 * call + 100;
    expect(estimate.ms).toBeCloseTo(cost(20) + 5_000, 6);
    expect(estimate.spreadMs).toBeCloseTo((cost(40) + 10_000 - (cost(10) + 2_500)) / 2, 6);
    expect(estimate.runs).toEqual(['2026-11-25T12-00-00Z', '2026-11-25T11-00-00Z', '2026-11-25T10-00-00Z']);
    expect(describeEstimate(estimate, 1e9, 'results')).toBe('expected ≈ 5s ± 4s (every visit costed from the same cell in the last 3 runs in results/ on this machine; ± half the range from fastest to slowest)');
  });

  it('stops a budgeted visit where its budget is spent, as the runner does', () => {
    // 10 ms a call, 20 ms a repetition: a 100 ms budget makes 5 of the 100 runs.
    const estimate = estimateRun([visit('①-2', { runs: 100, budgetMs: 100, minRuns: 3, cold: false, warmup: 0, warmupMs: 300 })], 0, 0, [pastRun('2026-11-25T12-00-00Z', 10, 0)], MODEL);
    expect(estimate.ms).toBeCloseTo(5 * 20 + 2 * 300 + 100, 6);
  });

  it('costs from the model the visits no past run measured (another case, network or variant), and names how many', () => {
    const plan = [visit('①-2'), visit('①-1'), visit('①-2', { network: 'region' }), visit('①-2', { variant: 'tuned' })];
    const estimate = estimateRun(plan, 0, 0, [pastRun('2026-11-25T12-00-00Z', 10, 0)], MODEL);
    expect(estimate.measuredVisits).toBe(1);
    expect(estimate.ms).toBeCloseTo(3 * 20 + 2 * 30 + 100 + 3 * 1_000, 6);
    expect(describeEstimate(estimate, 1e9, 'results')).toBe(
      "expected ≈ 3s (1 of 4 visits costed from the same cell in the last run in results/ on this machine, 3 from the blog's figures; no spread: one run per cell)",
    );
  });

  it('ignores failed cells and keeps the newest runs only', () => {
    const failed = pastRun('2026-11-25T13-00-00Z', 10, 0);
    failed.doc.results[1] = { ...failed.doc.results[1], ok: false, samplesMs: [] };
    const estimate = estimateRun([visit('①-2')], 0, 0, [failed], MODEL);
    expect(estimate).toMatchObject({ ms: 1_000, runs: [], measuredVisits: 0 });
    const many = Array.from({ length: 15 }, (_, i) => pastRun(`2026-11-25T${String(i).padStart(2, '0')}-00-00Z`, 10, 0));
    expect(estimateRun([visit('①-2')], 0, 0, many, MODEL).runs).toHaveLength(10);
  });

  it(`shows the bound (every call at its deadline) only within ${BOUND_SHOWN_WITHIN}× of the estimate`, () => {
    const estimate = estimateRun([visit('①-2')], 1, 0, [], MODEL);
    expect(describeEstimate(estimate, 104_000, 'results')).not.toContain('at most');
    expect(describeEstimate(estimate, 30_000, 'results')).toMatch(/; at most 30s \(every call at its deadline\)$/);
  });
});
