import { ECHO_MAX_CONTENT } from '@bench/samples';

/** A size limit as data: its value and why it is that value (docs/reliability.md, "Requests and connections"). */
export interface ByteLimit {
  bytes: number;
  why: string;
}

/**
 * Room above the largest legitimate request: a limit twice that size never refuses a caller that
 * follows the contract (framing, JSON escapes of a future payload, a longer field name), and still
 * refuses a body a thousand times larger after reading at most twice the legitimate one.
 */
const MARGIN = 2;

/** The echo suites' largest request: ECHO_MAX_CONTENT characters of ASCII, plus its framing. */
const ECHO_REQUEST_BYTES = ECHO_MAX_CONTENT + 16;

/**
 * The largest message each listener reads, after decompression. A listener's limit is that of its
 * largest method (grpc-js and connect-es take one limit per server, not per method).
 */
export const REQUEST_LIMITS = Object.freeze({
  grpc: {
    bytes: MARGIN * ECHO_REQUEST_BYTES,
    why:
      "server-b's gRPC receive limit: its largest request is echo.RequestMessage with 1 MiB of content (1,048,580 bytes); " +
      'every other request (a count, an id, a byte size, a flag) is under 16 bytes',
  },
  http: {
    bytes: MARGIN * ECHO_REQUEST_BYTES,
    why:
      "server-a's request bodies (JSON and application/x-protobuf, both listeners): its largest is POST /echo " +
      '{"content": …} with 1 MiB of content (1,048,590 bytes as JSON); the other routes are GETs without a body',
  },
  connect: {
    bytes: 64 * 1024,
    why:
      "connect-es's readMaxBytes on server-a's HTTP/2 listener: it serves only sample.GetSamples, whose request is a count " +
      '(≤ 6 bytes of protobuf, ≤ 30 of JSON); 64 KiB is a floor no legitimate request nears, not a size worth tuning',
  },
  control: {
    bytes: 64 * 1024,
    why: "the client's POST /bench/run body: one case request of about ten fields (under 1 KiB); 64 KiB as for connect",
  },
} satisfies Record<string, ByteLimit>);

/**
 * Largest reply message the client reads from the servers, and the servers send. The largest legitimate
 * reply is MAX_ROWS items (1,000,000 by default): a million of the blog's rows are 156 MB of protobuf and
 * 277 MB of JSON, an orders item 1.3 KB of protobuf, so a million orders are 1.3 GB. No smaller limit
 * holds them; 2^31-1 is the largest every gRPC implementation accepts. The client reads only the servers
 * it was configured with, so this is a limit on our own replies, not a defence.
 */
export const REPLY_LIMIT: ByteLimit = Object.freeze({
  bytes: 2_147_483_647,
  why:
    'the largest legitimate reply is MAX_ROWS items: a million orders items are 1.3 GB of protobuf, so no smaller limit ' +
    'holds it; 2^31-1 is the largest every gRPC implementation accepts',
});
