import { Observable } from 'rxjs';

/** What pacing needs of a call's outgoing stream: how many messages it holds that are not sent yet. */
export interface SendQueue {
  readonly writableLength: number;
}

/** Unsent messages the call may hold before the next chunk is built. */
export const MAX_IN_FLIGHT = 1;

/**
 * Items 0 … count-1 as a stream of chunks of `chunkSize`, each built by `build(start, end)` only when
 * `queue` holds at most `maxInFlight` unsent messages.
 *
 * Why: an Observable has no back-pressure. A producer that emits as fast as it can leaves what the
 * stream has not sent waiting as plain objects (in Nest's queue, then in the stream's buffer of up to
 * 16 messages); held that long they outlive V8's young generation, and a large reply becomes a series
 * of full garbage collections. The stream raises no event per sent message ('drain' only after 16),
 * so a full queue is polled every millisecond; the polling stops with the subscription.
 */
export function pacedChunks<T>(
  count: number,
  chunkSize: number,
  queue: SendQueue,
  build: (start: number, end: number) => T,
  maxInFlight = MAX_IN_FLIGHT,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    let start = 0;
    let timer: NodeJS.Timeout | undefined;
    const next = () => {
      if (queue.writableLength > maxInFlight) {
        timer = setTimeout(next, 1);
        return;
      }
      const end = Math.min(start + chunkSize, count);
      subscriber.next(build(start, end));
      start = end;
      if (start >= count) subscriber.complete();
      // A macrotask (not a microtask) between chunks lets the socket write what was just queued.
      else timer = setTimeout(next, 0);
    };
    if (count <= 0) subscriber.complete();
    else next();
    return () => clearTimeout(timer);
  });
}
