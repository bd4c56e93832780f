import { Readable } from 'node:stream';
import { noteAbandoned } from './reply-deadline';
import { buildRow, type RowStreamPhases, type SampleRow } from './row';

/**
 * Rows a large reply builds (and, for JSON, encodes) between two checks for cancellation and two turns
 * of the event loop. A slice of 10,000 rows takes ~3–10 ms to build and ~5–15 ms to encode here, so a
 * reply whose caller has gone stops within about that, and /health waits at most one slice. The price
 * per slice is one setImmediate and one check (microseconds), 100 times for 1,000,000 rows: nothing
 * beside the seconds such a reply takes. Replies of at most one slice are built in one piece as before.
 */
export const REPLY_SLICE_ROWS = 10_000;

/**
 * Replies of up to this many rows (JSON, protobuf bodies, unary gRPC) are built and encoded in one piece,
 * as the blog's servers did: every case but ①-3 (20k×4's 20,000 rows is the largest), so those measure
 * what the blog measured; such a JSON body is ~5.5 MB, which bounds what one holds for a client that does
 * not read. Above it, work is sliced; a JSON reply streams in slices (jsonRowsStream): measured with the blog's Express, a 1,000,000-row
 * reply then took 4.9–6.8 s against 7.5–12.4 s in one piece (no 1,000,000 rows alive at once, no ETag
 * over 277 MB), and 20,000 rows × 4 took 227–244 ms against 400 ms, hence this threshold.
 */
export const WHOLE_REPLY_MAX_ROWS = 20_000;

/** The next turn of the event loop: I/O (a /health request, a 'close', a timer) runs first. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Rows 0 … count-1, built REPLY_SLICE_ROWS at a time, yielding between slices and stopping with the
 * signal's reason once it aborts. All rows are kept (a unary message needs them all at once, as the
 * blog's servers had them); only the building is sliced.
 */
export async function buildRowsSliced(count: number, signal?: AbortSignal, phases?: RowStreamPhases): Promise<SampleRow[]> {
  const rows = new Array<SampleRow>(count);
  for (let start = 0; start < count; start += REPLY_SLICE_ROWS) {
    if (start > 0) await nextTurn();
    signal?.throwIfAborted();
    const end = Math.min(count, start + REPLY_SLICE_ROWS);
    const started = performance.now();
    for (let i = start; i < end; i++) rows[i] = buildRow(i);
    phases?.('build', performance.now() - started);
  }
  return rows;
}

/**
 * `values` encoded REPLY_SLICE_ROWS at a time by `encode`, yielding between slices and stopping once
 * the signal aborts; the parts in order. For a protobuf message whose only field is the repeated one,
 * the parts concatenated are byte for byte the whole message encoded at once (a repeated field is its
 * elements' records one after another), so a caller sees no difference.
 */
export async function encodeSliced<T>(values: readonly T[], encode: (slice: T[]) => Buffer, signal?: AbortSignal): Promise<Buffer[]> {
  const parts: Buffer[] = [];
  for (let start = 0; start < values.length; start += REPLY_SLICE_ROWS) {
    if (start > 0) await nextTurn();
    signal?.throwIfAborted();
    parts.push(encode(values.slice(start, start + REPLY_SLICE_ROWS)));
  }
  return parts;
}

/** Bytes of `JSON.stringify(buildRow(i))` without the digits of i (which appears eleven times). */
const ROW_JSON_FIXED = JSON.stringify(buildRow(0)).length - 11;
const SAMPLES_OPEN = '{"samples":[';
const SAMPLES_CLOSE = ']}';

/** Decimal digits of rows 0 … count-1 together. */
function digitsUpTo(count: number): number {
  let digits = 0;
  for (let width = 1, from = 0, to = 10; from < count; width++, from = to, to *= 10) digits += width * (Math.min(count, to) - from);
  return digits;
}

/**
 * Exact length in bytes of `JSON.stringify({ samples: buildRows(count) })` (every character is ASCII),
 * so a reply produced in slices still sends Content-Length as the one-piece reply did, and clients
 * that meter a body by it keep doing so.
 */
export function samplesJsonLength(count: number): number {
  if (count === 0) return SAMPLES_OPEN.length + SAMPLES_CLOSE.length;
  return SAMPLES_OPEN.length + count * ROW_JSON_FIXED + 11 * digitsUpTo(count) + (count - 1) + SAMPLES_CLOSE.length;
}

/**
 * `{ "samples": [rows 0 … count-1] }` as a byte stream, byte for byte JSON.stringify's text, built and
 * encoded a slice at a time only when its reader asks for more: piped into a response, that is when the
 * socket has taken the slice before (pipe waits for 'drain'), so a reply holds one slice's rows and
 * text (~2.6 MB) beside what the socket buffers, never the whole body, and a client that stops reading
 * stops its production. When `signal` aborts (the caller's deadline, or its connection closed) the
 * stream is destroyed with the reason and no further slice is built; `what` names it in the log.
 */
export function jsonRowsStream(count: number, options: JsonStreamOptions = {}): Readable {
  return jsonListStream('samples', count, buildRow, options);
}

export interface JsonStreamOptions {
  signal?: AbortSignal;
  phases?: RowStreamPhases;
  /** What the log calls the reply when it is abandoned. */
  what?: string;
}

/**
 * `{ [field]: [build(0) … build(count-1)] }` as a byte stream, byte for byte JSON.stringify's text,
 * produced a slice at a time as its reader asks (jsonRowsStream says why and how it stops).
 */
export function jsonListStream(field: string, count: number, build: (i: number) => unknown, options: JsonStreamOptions = {}): Readable {
  const { signal, phases } = options;
  const open = `{${JSON.stringify(field)}:[`;
  let next = 0;
  let done = false;
  const stream = new Readable({
    // Below one slice's size: exactly one slice waits in the stream while the socket writes the one before.
    highWaterMark: 16 * 1024,
    read() {
      if (next >= count) {
        done = true;
        return void this.push(null);
      }
      const end = Math.min(count, next + REPLY_SLICE_ROWS);
      const built = performance.now();
      const rows = new Array<unknown>(end - next);
      for (let i = next; i < end; i++) rows[i - next] = build(i);
      const encoded = performance.now();
      const text = JSON.stringify(rows);
      phases?.('build', encoded - built);
      phases?.('encode', performance.now() - encoded);
      // Each slice's array text without its brackets, joined by commas inside the one array.
      const head = next === 0 ? open : ',';
      const tail = end === count ? SAMPLES_CLOSE : '';
      next = end;
      this.push(head + text.slice(1, -1) + tail);
    },
  });
  stopOnAbort(stream, signal, () => (done ? undefined : `${options.what ?? 'reply'} of ${count} rows (after ${next})`));
  return stream;
}

/**
 * Destroys `stream` with the signal's reason when it aborts, and logs it as abandoned under the name
 * `what()` gives (undefined: the stream had already produced everything, nothing is cut).
 */
export function stopOnAbort(stream: Readable, signal: AbortSignal | undefined, what: () => string | undefined): void {
  if (!signal) return;
  const stop = () => {
    const cut = what();
    if (cut === undefined || stream.destroyed) return;
    noteAbandoned(cut, signal.reason);
    stream.destroy(signal.reason instanceof Error ? signal.reason : undefined);
  };
  if (signal.aborted) queueMicrotask(stop);
  else signal.addEventListener('abort', stop, { once: true });
  stream.once('close', () => signal.removeEventListener('abort', stop));
}
