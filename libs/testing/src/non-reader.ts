import * as http2 from 'node:http2';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { grpcFrame } from './hostile';

/** A unary call whose caller does not read its reply (or barely): when the reply's headers came, and how the stream ended. */
export interface NonReader {
  /** Resolves once the reply has started (its headers arrived): the server produced it and queued it. */
  started: Promise<void>;
  /** Resolves with the stream's RST_STREAM code once it closed (0: it ended without one). */
  closed: Promise<number>;
  /** Whether the stream has closed. */
  isClosed(): boolean;
  /** Cuts the connection. */
  disconnect(): void;
}

/**
 * Opens one unary call (`headers`, `body`: gRPC framing or Connect's unary body) and never reads its
 * reply, as a stalled or hostile caller: the stream is paused, so node:http2 gives the server no more
 * window than its first 64 KiB. With `sipEveryMs`, it reads what has arrived that often (one window
 * at a time): a caller that reads, far too slowly to finish.
 */
export function callWithoutReading(url: string, headers: http2.OutgoingHttpHeaders, body: Buffer, sipEveryMs?: number): NonReader {
  const session = http2.connect(url);
  session.on('error', () => undefined);
  const stream = session.request({ ':method': 'POST', ...headers });
  stream.on('error', () => undefined);
  stream.pause();
  stream.end(body);
  if (sipEveryMs !== undefined) {
    const sip = setInterval(() => (stream.resume(), setImmediate(() => stream.pause())), sipEveryMs);
    stream.once('close', () => clearInterval(sip));
  }
  return {
    started: new Promise((resolve, reject) => (stream.once('response', () => resolve()), stream.once('close', () => reject(new Error(`closed before its reply started (RST ${stream.rstCode})`))))),
    closed: new Promise((resolve) => stream.once('close', () => resolve(stream.rstCode ?? 0))),
    isClosed: () => stream.closed,
    disconnect: () => session.destroy(),
  };
}

/** A gRPC unary request of one message for callWithoutReading. */
export function grpcCall(path: string, message: Buffer, deadlineMs?: number): { headers: http2.OutgoingHttpHeaders; body: Buffer } {
  const deadline = deadlineMs === undefined ? {} : { 'grpc-timeout': `${Math.ceil(deadlineMs)}m` };
  return { headers: { ':path': path, 'content-type': 'application/grpc', te: 'trailers', ...deadline }, body: grpcFrame(message) };
}

type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
let collect: Gc | undefined;
/**
 * This process's resident memory once garbage is collected and V8 has given back the pages it freed
 * (V8's gc, exposed here for the measurement): without 'last-resort', V8 keeps the pages a large reply
 * freed (~900 MB after 1,000,000 rows) in its pool until its memory reducer runs, which they would
 * count in whatever the test holds.
 */
export function rssAfterGc(): number {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Gc;
  }
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return process.memoryUsage.rss();
}

/** What happened to a reply its caller never read (holdUnread). */
export interface UnreadReply {
  /** From the call to its reply's headers: how long the server took to produce it. */
  producedMs: number;
  /** The process's RSS above `baseline` once the reply was queued (rssAfterGc). */
  heldBytes: number;
  /** Whether the stream was still open when that was measured. */
  openWhenMeasured: boolean;
  /** The stream's RST_STREAM code once it closed. */
  rstCode: number;
  /** From the reply's headers to the stream's close. */
  heldMs: number;
}

/** Calls without ever reading (callWithoutReading), measures what the process holds once the reply is queued, and waits for the stream to close. */
export async function holdUnread(url: string, request: { headers: http2.OutgoingHttpHeaders; body: Buffer }, baseline: number): Promise<UnreadReply> {
  const started = performance.now();
  const caller = callWithoutReading(url, request.headers, request.body);
  await caller.started;
  const queued = performance.now();
  const heldBytes = rssAfterGc() - baseline;
  const openWhenMeasured = !caller.isClosed();
  const rstCode = await caller.closed;
  caller.disconnect();
  return { producedMs: queued - started, heldBytes, openWhenMeasured, rstCode, heldMs: performance.now() - queued };
}

/** Calls reading one window every `sipEveryMs` (callWithoutReading), and resolves with how the stream closed and when, from the call. */
export async function readTooSlowly(url: string, request: { headers: http2.OutgoingHttpHeaders; body: Buffer }, sipEveryMs: number): Promise<{ rstCode: number; closedAfterMs: number }> {
  const started = performance.now();
  const caller = callWithoutReading(url, request.headers, request.body, sipEveryMs);
  await caller.started;
  const rstCode = await caller.closed;
  caller.disconnect();
  return { rstCode, closedAfterMs: performance.now() - started };
}

/** What unreadOutcome answers for a server that did what it should. */
export const RESET_ONCE_STALLED = 'held within its bound, then reset once it stalled';

/** Says what a server did with a reply its caller never read (holdUnread): RESET_ONCE_STALLED, or what went wrong. */
export function unreadOutcome(unread: UnreadReply, heldBound: number, stallMs: number): string {
  const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;
  if (unread.heldBytes >= heldBound) return `held ${mb(unread.heldBytes)}, over its bound of ${mb(heldBound)}`;
  if (!unread.openWhenMeasured) return 'closed before what it held was measured';
  if (unread.rstCode !== http2.constants.NGHTTP2_CANCEL) return `ended with RST_STREAM code ${unread.rstCode}, not reset (CANCEL)`;
  // A timer may fire a few ms early against performance.now().
  if (unread.heldMs < stallMs - 50) return `reset ${Math.round(unread.heldMs)} ms after its reply started, before the ${stallMs}-ms stall limit`;
  return RESET_ONCE_STALLED;
}

/** What slowReaderOutcome answers for a server that did what it should. */
export const RESET_AT_DEADLINE = "reset once the call's deadline passed";

/** Says what a server did with a reply read far too slowly to finish (readTooSlowly): RESET_AT_DEADLINE, or what went wrong. */
export function slowReaderOutcome(slow: { rstCode: number; closedAfterMs: number }, deadlineMs: number): string {
  if (slow.rstCode !== http2.constants.NGHTTP2_CANCEL) return `ended with RST_STREAM code ${slow.rstCode}, not reset (CANCEL)`;
  if (slow.closedAfterMs < deadlineMs - 50) return `reset after ${Math.round(slow.closedAfterMs)} ms, before its ${deadlineMs}-ms deadline`;
  return RESET_AT_DEADLINE;
}
