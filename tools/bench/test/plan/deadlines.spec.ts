import { callDeadlineMs, callsOf, requestBoundMs, runBoundMs, visitBoundMs, withinBound, REQUEST_OVERHEAD_MS } from '../../src/plan/deadlines';
import { blogCase as byId, plannedVisit as visit } from '../planned-visit';

describe('deadlines', () => {
  it("derive each call's deadline from the rows it moves, unless overridden", () => {
    expect(callDeadlineMs(byId('①-1'))).toBe(10_000);
    expect(callDeadlineMs(byId('②-3'))).toBe(10_100);
    expect(callDeadlineMs(byId('20k×4'))).toBe(18_000);
    expect(callDeadlineMs(byId('①-3'))).toBe(110_000);
    expect(callDeadlineMs(byId('①-3'), 1500)).toBe(1500);
  });

  it('bound a request by its calls and a visit by its requests, so every stage has a limit', () => {
    expect(callsOf({ cold: true, warmup: 2, runs: 0 })).toBe(3);
    expect(requestBoundMs(3, 1000)).toBe(3000 + REQUEST_OVERHEAD_MS);
    const small = visitBoundMs(visit('①-1'), 1000);
    expect(visitBoundMs(visit('①-1', { runs: 6 }), 1000)).toBeGreaterThan(small);
    expect(visitBoundMs(visit('①-1', { transports: ['json'] }), 1000)).toBeLessThan(small);
    expect(visitBoundMs(visit('①-1', { warmupMs: 3000 }), 1000)).toBeGreaterThan(small);
  });

  it('bound the run by its visits plus every set of apps started twice and stopped', () => {
    const plan = [visit('①-1'), visit('①-2')];
    const visits = plan.reduce((sum, p) => sum + visitBoundMs(p, p.deadlineMs), 0);
    expect(runBoundMs(plan, (p) => p.deadlineMs, 0)).toBe(visits);
    expect(runBoundMs(plan, (p) => p.deadlineMs, 2)).toBe(visits + 2 * 2 * (60_000 + 5_000));
    expect(runBoundMs(plan, (p) => p.deadlineMs, 2, 1)).toBe(visits + 2 * 2 * (60_000 + 5_000) + 300_000);
  });
});

describe('withinBound', () => {
  it('passes the work through, or says what ran past its bound', async () => {
    await expect(withinBound(Promise.resolve(3), 1000, 'x')).resolves.toBe(3);
    await expect(withinBound(new Promise(() => undefined), 20, 'calibrating the stage')).rejects.toThrow('calibrating the stage ran past its bound of 0 s');
  });
});
