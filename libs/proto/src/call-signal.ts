import type { Deadline } from '@grpc/grpc-js';
import { ReplyAbandoned, WHOLE_REPLY_MAX_ROWS } from '@bench/samples';

/** What a gRPC server call (grpc-js) tells about its caller: its deadline, and 'cancelled' when the caller goes. */
export interface CancellableCall {
  getDeadline(): Deadline;
  once(event: 'cancelled', listener: () => void): unknown;
  readonly cancelled: boolean;
}

/**
 * An AbortSignal for a gRPC server call: aborted when its deadline (grpc-timeout) passes or the call is
 * cancelled. Both are needed: at the deadline grpc-js answers DEADLINE_EXCEEDED itself and never
 * emits 'cancelled' to the handler, which would otherwise go on building a reply no one will read.
 */
/** A signal that never aborts: for a reply produced in one piece, which has nothing to stop part-way. */
const NEVER = new AbortController().signal;

/**
 * grpcCallSignal(call) for a reply of more than WHOLE_REPLY_MAX_ROWS rows, which is produced in slices;
 * a smaller one (every case but ①-3: 1,000 parallel one-row calls in ②-3) pays nothing for it.
 */
export function grpcCallSignalFor(count: number, call: CancellableCall): AbortSignal {
  return count > WHOLE_REPLY_MAX_ROWS ? grpcCallSignal(call) : NEVER;
}

export function grpcCallSignal(call: CancellableCall): AbortSignal {
  const controller = new AbortController();
  const deadline = call.getDeadline();
  const at = deadline instanceof Date ? deadline.getTime() : deadline;
  let timer: NodeJS.Timeout | undefined;
  const stop = (reason: string) => {
    clearTimeout(timer);
    if (!controller.signal.aborted) controller.abort(new ReplyAbandoned(reason));
  };
  if (Number.isFinite(at)) {
    timer = setTimeout(() => stop(`the call's deadline passed (grpc-timeout, ${Math.round(at - Date.now())} ms left)`), Math.max(0, at - Date.now()));
    timer.unref();
  }
  if (call.cancelled) stop('the call was cancelled');
  else call.once('cancelled', () => stop('the call was cancelled'));
  return controller.signal;
}
