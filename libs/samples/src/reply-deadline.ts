/**
 * The header a JSON caller sends its deadline in: the milliseconds it will still wait for the whole
 * reply, counted from when it sends the request (relative, so clocks on two hosts need not agree).
 * gRPC has grpc-timeout and Connect connect-timeout-ms for this; plain HTTP has nothing standard.
 */
export const DEADLINE_HEADER = 'x-deadline-ms';

/** The header's value for a call with `deadlineMs` left. */
export function deadlineHeader(deadlineMs: number): Record<string, string> {
  return { [DEADLINE_HEADER]: String(Math.max(1, Math.round(deadlineMs))) };
}

/** The deadline a request carries in ms, or undefined when it sends none (or not a positive whole number). */
export function parseDeadlineHeader(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^\d{1,10}$/.test(text)) return undefined;
  const ms = Number(text);
  return ms > 0 ? ms : undefined;
}

/** Why a reply stopped being produced: its caller's deadline passed, or the caller went away. */
export class ReplyAbandoned extends Error {
  override readonly name = 'ReplyAbandoned';
}

let abandoned = 0;

/** Replies this process stopped producing because their caller could no longer use them. */
export function abandonedReplies(): number {
  return abandoned;
}

/**
 * Counts (and logs, once per reply) a reply stopped part-way: the log says what was cut and why, so
 * an app's log shows the work a deadline or a disconnect saved.
 */
export function noteAbandoned(what: string, reason: unknown): void {
  abandoned++;
  const why = reason instanceof Error ? reason.message : String(reason);
  console.warn(`${what} abandoned: ${why}`);
}

/**
 * A signal that aborts when the request's deadline header says the caller stops waiting, or when the
 * connection closes before the reply is finished. `response` is a node:http or node:http2 compat
 * response (each emits 'close', and knows whether it finished writing).
 */
export function callerSignal(
  deadlineMs: number | undefined,
  response: { once(event: 'close', listener: () => void): unknown; readonly writableEnded: boolean },
): AbortSignal {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  if (deadlineMs !== undefined) {
    timer = setTimeout(() => controller.abort(new ReplyAbandoned(`the caller's deadline of ${deadlineMs} ms passed`)), deadlineMs);
    // A finished reply leaves nothing to stop: the timer must not keep a closing server alive either.
    timer.unref();
  }
  response.once('close', () => {
    clearTimeout(timer);
    if (!response.writableEnded) controller.abort(new ReplyAbandoned('the caller closed the connection before the reply was sent'));
  });
  return controller.signal;
}
