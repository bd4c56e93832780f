import { callFailure, describeFailure, failureSummary } from '../../src/measure/failures';
import type { Failure } from '../../src/model/model';
import { handMadeCell } from '../hand-made-cell';

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

  it('sums up the failed cells in one line, or nothing when all succeeded', () => {
    const failed = { ok: false, failure: died, error: describeFailure(died), summary: null, samplesMs: [] };
    const results = [handMadeCell({ ...failed, transport: 'json' }), handMadeCell({ ...failed, transport: 'grpc' })];
    expect(failureSummary(results)).toBe('bench: 2 of 2 cells failed: blog ①-2 json (died: server-b exited with signal SIGKILL); blog ①-2 grpc (died: server-b exited with signal SIGKILL)');
    expect(failureSummary([])).toBeNull();
  });
});
