import { blame, failedVisit } from '../../src/run/app-sets';
import { BLOG_CASES } from '../../src/plan/cases';
import { callDeadlineMs, callsOf, requestBoundMs, runBoundMs, visitBoundMs, withinBound, REQUEST_OVERHEAD_MS } from '../../src/plan/deadlines';
import { callFailure, describeFailure, failureSummary } from '../../src/measure/failures';
import type { Failure, PlannedCase, RawResult } from '../../src/results/model';
import { toCaseResult } from '../../src/results/results';

const byId = (id: string) => BLOG_CASES.find((c) => c.id === id)!;
const visit = (id: string, more: Partial<PlannedCase> = {}): PlannedCase => ({
  network: 'loopback', variant: 'blog', record: byId(id), transports: ['json', 'grpc'], warmup: 1, warmupMs: 0, runs: 3, settleMs: 0,
  forks: 0, fork: 0, visits: 1, visit: 1, cold: true, firstPosition: 0, deadlineMs: callDeadlineMs(byId(id)), budgetMs: null, minRuns: 1, ...more,
});

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

describe('failures as data', () => {
  const died: Failure = { kind: 'died', message: 'server-b exited while serving', process: 'server-b', pid: 42, exit: 'exited with signal SIGKILL', logTail: ['a', 'b'] };

  it('tells a call past its deadline from its other errors', () => {
    expect(callFailure(new Error('DEADLINE_EXCEEDED: no complete reply'), 'repetition 2: ')).toEqual({ kind: 'deadline', message: 'repetition 2: DEADLINE_EXCEEDED: no complete reply' });
    expect(callFailure(new Error('timeout of 1500ms exceeded')).kind).toBe('deadline');
    expect(callFailure(new Error('HTTP 400: rows must be an integer')).kind).toBe('call');
  });

  it('says which process, how it ended and the last lines of its log', () => {
    expect(describeFailure(died)).toBe('server-b exited while serving — server-b (pid 42) exited with signal SIGKILL; last log lines: a ⏎ b');
  });

  it('records a visit that could not be made as one failed result per transport', () => {
    const results = failedVisit(visit('①-2'), died);
    expect(results.map((r) => `${r.case}/${r.transport}`)).toEqual(['①-2/json', '①-2/grpc']);
    expect(toCaseResult(results[0])).toMatchObject({ ok: false, failure: died, error: describeFailure(died), summary: null });
  });

  it("blames a visit's failed calls on the death that broke its set, keeping each call's message and the successes", () => {
    const ok = failedVisit(visit('①-2'), died).map((r): RawResult => ({ ...r, failure: null, error: null }));
    const results = [ok[0], { ...ok[1], failure: { kind: 'call' as const, message: 'repetition 2: code 14 UNAVAILABLE' }, error: 'x' }];
    const blamed = blame(results, died);
    expect(blamed[0]).toBe(results[0]);
    expect(blamed[1].failure).toEqual({ ...died, message: 'repetition 2: code 14 UNAVAILABLE' });
    const notAnswering: Failure = { kind: 'not-answering', message: 'its apps stopped answering' };
    const deadline = [{ ...ok[1], failure: { kind: 'deadline' as const, message: 'DEADLINE_EXCEEDED' }, error: 'x' }];
    expect(blame(deadline, notAnswering)[0].failure).toEqual({ kind: 'deadline', message: 'DEADLINE_EXCEEDED' });
  });

  it('sums up the failed cells in one line, or nothing when all succeeded', () => {
    const results = failedVisit(visit('①-2'), died).map(toCaseResult);
    expect(failureSummary(results)).toBe('bench: 2 of 2 cells failed: blog ①-2 json (died: server-b exited with signal SIGKILL); blog ①-2 grpc (died: server-b exited with signal SIGKILL)');
    expect(failureSummary([])).toBeNull();
  });
});

describe('withinBound', () => {
  it('passes the work through, or says what ran past its bound', async () => {
    await expect(withinBound(Promise.resolve(3), 1000, 'x')).resolves.toBe(3);
    await expect(withinBound(new Promise(() => undefined), 20, 'calibrating the stage')).rejects.toThrow('calibrating the stage ran past its bound of 0 s');
  });
});
