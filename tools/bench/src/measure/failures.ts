// Failures as data: every way a cell can fail ends as a Failure (model.ts) with a one-line `error`.
import { errorText } from '../cli';
import { type Cell, type Failure } from '../model';
import { describeListenQueue } from '../model';

/** A failed request as data: past its deadline (the client's or the bench's wait), or the call's own error. */
export function callFailure(cause: unknown, prefix = ''): Failure {
  const message = prefix + errorText(cause);
  return { kind: /DEADLINE_EXCEEDED|deadline|timeout|timed out|no answer from/i.test(message) ? 'deadline' : 'call', message };
}

/** Plain-text form of a failure, for results' `error`: the message, then what is known of the process. */
export function describeFailure(failure: Failure): string {
  const who = failure.process ? ` — ${failure.process}${failure.pid ? ` (pid ${failure.pid})` : ''}${failure.exit ? ` ${failure.exit}` : ''}` : '';
  const log = failure.logTail?.length ? `; last log lines: ${failure.logTail.join(' ⏎ ')}` : '';
  return `${failure.message}${who}${log}`;
}

/** One line naming every failed cell and why, for the end of the run. */
export function failureSummary(results: readonly Cell[]): string | null {
  const failed = results.filter((r) => !r.ok);
  if (failed.length === 0) return null;
  const why = (r: Cell) => {
    const f = r.failure;
    const who = f?.process ? `${f.process}${f.exit ? ` ${f.exit}` : ''}` : (r.error ?? 'unknown error').split('\n')[0].slice(0, 120);
    const queue = describeListenQueue(r.pathCounters?.tcp);
    return `${r.variant} ${r.case} ${r.transport} (${f ? `${f.kind}: ` : ''}${who}${queue ? ` — ${queue}` : ''})`;
  };
  return `bench: ${failed.length} of ${results.length} cells failed: ${failed.map(why).join('; ')}`;
}
