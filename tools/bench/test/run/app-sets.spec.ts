import { blame, failedVisit } from '../../src/run/app-sets';
import type { Failure, RawResult } from '../../src/model/model';
import { toCell } from '../../src/model/results';
import { describeFailure } from '../../src/measure/failures';
import { plannedVisit as visit } from '../planned-visit';

describe('a visit that fails', () => {
  const died: Failure = { kind: 'died', message: 'server-b exited while serving', process: 'server-b', pid: 42, exit: 'exited with signal SIGKILL', logTail: ['a', 'b'] };

  it('records a visit that could not be made as one failed result per transport', () => {
    const results = failedVisit(visit('①-2'), died);
    expect(results.map((r) => `${r.case}/${r.transport}`)).toEqual(['①-2/json', '①-2/grpc']);
    expect(toCell(results[0])).toMatchObject({ ok: false, failure: died, error: describeFailure(died), summary: null });
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
});
