import * as http2 from 'node:http2';
import * as net from 'node:net';
import { createGzip } from 'node:zlib';

/** 50 MB of zeros gzipped (~50 KB): a body far past every request limit once inflated (issue 31's bomb). */
export const BOMB_INFLATED_BYTES = 50 * 1024 * 1024;

/** `inflatedBytes` of zeros, gzipped without ever holding them: a decompression bomb. */
export async function gzipOfZeros(inflatedBytes: number = BOMB_INFLATED_BYTES): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => (gzip.on('end', resolve), gzip.on('error', reject)));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let written = 0; written < inflatedBytes; written += zeros.length) {
    if (!gzip.write(zeros.subarray(0, Math.min(zeros.length, inflatedBytes - written)))) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await ended;
  return Buffer.concat(chunks);
}

/** One gRPC length-prefixed message: the compressed flag, 4 bytes of length, the bytes. */
export function grpcFrame(message: Buffer, compressed = false): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt8(compressed ? 1 : 0, 0);
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
}

/** How much this process's resident memory rose above its start while `work` ran (sampled every 5 ms). */
export async function rssGrowthDuring<T>(work: () => Promise<T>): Promise<{ result: T; grewBytes: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, grewBytes: peak - before };
  } finally {
    clearInterval(timer);
  }
}

export interface Http2Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  /** The trailers, or the headers of a trailers-only answer. */
  trailers: http2.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One raw HTTP/2 request with any headers and body bytes, as a hostile caller would send it. Once the
 * answer is in, the TCP connection is cut without a GOAWAY: after a GOAWAY, a node:http2 server session
 * whose stream still has an unread body waits for it while the socket stays open (up to
 * CONNECTION_LIMITS.goawayGrace), and session.destroy() leaves the socket open while that body is queued.
 */
export function http2Request(baseUrl: string, headers: http2.OutgoingHttpHeaders, body: Buffer): Promise<Http2Answer> {
  const { hostname, port } = new URL(baseUrl);
  let socket: net.Socket | undefined;
  const session = http2.connect(baseUrl, { createConnection: () => (socket = net.connect(Number(port), hostname)) });
  return new Promise<Http2Answer>((resolve, reject) => {
    session.on('error', reject);
    const stream = session.request({ ':method': 'POST', ...headers });
    const chunks: Buffer[] = [];
    let answer: Omit<Http2Answer, 'body' | 'trailers'> | undefined;
    let trailers: http2.IncomingHttpHeaders | undefined;
    stream.on('response', (h) => (answer = { status: Number(h[':status']), headers: h }));
    stream.on('trailers', (t) => (trailers = t));
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', reject);
    stream.on('close', () => {
      if (!answer) return reject(new Error(`no answer (stream closed with code ${stream.rstCode})`));
      resolve({ ...answer, trailers: trailers ?? answer.headers, body: Buffer.concat(chunks) });
    });
    stream.end(body);
  }).finally(() => socket?.destroy());
}

/**
 * Connects, sends `bytes` (half an HTTP/2 preface, half a request head) and stops. Resolves with how
 * long the server took to close the connection, or null if it was still open after `waitMs`.
 */
export function stallAfter(port: number, bytes: string | Buffer, waitMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    const timer = setTimeout(() => (socket.destroy(), resolve(null)), waitMs);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => (clearTimeout(timer), resolve(performance.now() - started)));
  });
}

/**
 * How long past the handshake limit a stalled connection may stay open: ten times the limit, far above
 * node:http's check interval (at most the limit itself, listener-timeouts.ts) and a loaded machine's
 * timer delays, far below the defaults a listener without the limit keeps (node:tls's 120 s, or never).
 */
const DROP_BOUND_FACTOR = 10;
/** What stallOutcome answers for a listener that did what it should. */
export const DROPPED_AT_LIMIT = 'dropped once the handshake limit passed';

/** Stalls half-way (stallAfter) and says what the listener did: DROPPED_AT_LIMIT, or what went wrong. */
export async function stallOutcome(port: number, bytes: string | Buffer, handshakeMs: number): Promise<string> {
  const waitMs = DROP_BOUND_FACTOR * handshakeMs;
  const closedAfter = await stallAfter(port, bytes, waitMs);
  if (closedAfter === null) return `still open after ${waitMs} ms`;
  // A timer may fire a few ms early against performance.now().
  if (closedAfter < handshakeMs - 50) return `closed after ${Math.round(closedAfter)} ms, before the ${handshakeMs}-ms limit`;
  return DROPPED_AT_LIMIT;
}

/** The first half of the HTTP/2 client connection preface (RFC 9113 §3.4). */
export const HALF_HTTP2_PREFACE = 'PRI * HTTP/2.0\r\n';
/** The start of a TLS ClientHello: a handshake record announcing 512 bytes, of which only its first 6 come. */
export const PARTIAL_CLIENT_HELLO = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]);
/** An HTTP/1.1 request head cut off before its blank line. */
export const HALF_REQUEST_HEAD = 'POST /bench/run HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n';

/** Whether an HTTP/2 session that finished its handshake (then idles) is still open after `ms`. */
export function http2SessionOpenAfter(baseUrl: string, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const session = http2.connect(baseUrl);
    let closed = false;
    session.on('error', () => undefined);
    session.on('close', () => (closed = true));
    setTimeout(() => {
      resolve(!closed);
      session.destroy();
    }, ms);
  });
}
