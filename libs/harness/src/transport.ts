import type { ProcessSample } from '@bench/config';

/**
 * Every transport a client may serve, as data: `json` (HTTP/1.1 + JSON) and `grpc` (HTTP/2 + protobuf)
 * are the blog's; `json-h2` (the same JSON over HTTP/2 cleartext) and `proto-h1` (the same rows as
 * application/x-protobuf over HTTP/1.1) complete the protocol × codec matrix; `connect-json`,
 * `connect-proto` and `connect-grpc` are connect-es's Connect protocol (JSON, binary) and gRPC protocol,
 * a second library on the same wire (docs/decomposition.md). A client serves a subset (the bare and Go
 * clients serve the blog's two).
 */
export const TRANSPORT_NAMES = ['json', 'grpc', 'json-h2', 'proto-h1', 'connect-json', 'connect-proto', 'connect-grpc'] as const;
export type TransportName = (typeof TRANSPORT_NAMES)[number];

/** The blog's two transports: what every client serves, and what the bench runs unless told otherwise. */
export const BLOG_TRANSPORT_NAMES: readonly TransportName[] = ['json', 'grpc'];

/** The flow-control windows an HTTP/2 connection actually opened with, read back from its session. */
export interface Http2Windows {
  /** The stream window this side advertised (SETTINGS_INITIAL_WINDOW_SIZE), in bytes. */
  streamBytes: number;
  /** The connection window this side can receive into, in bytes. */
  connectionBytes: number;
}

/** One way to reach a server: a client's long-lived one, or a fresh one opened for a cold call. */
export interface Connection {
  /**
   * Fires `requests` requests of `rows` rows at once and resolves when every reply has arrived and
   * been decoded (the blog's forkJoin). Each client implements it its own way (rxjs, promises, …).
   * `deadlineMs` bounds every request of the call (HTTP timeout, gRPC deadline), so a server that
   * accepts and never answers fails the call instead of hanging it.
   */
  fetchAll(rows: number, requests: number, deadlineMs: number): Promise<unknown[]>;
  close(): Promise<void>;
}

/**
 * A transport a client benchmarks. Every client (Nest, bare, tuned) implements this shape, so the
 * case runner, the blog routes and the bench route never branch on which one they hold.
 */
export interface RowTransport {
  readonly name: TransportName;
  /** The connection the client keeps for its lifetime. */
  shared(): Connection;
  /** A brand-new connection whose first call pays connection set-up. */
  openFresh(): Connection;
  /** Replies decoded since the last take: how many, their encoded bytes, and the time spent decoding them. */
  takeReplies(): ReplyTally;
  /** The serving process's own CPU, memory and phase reading (outside any timed call). */
  readServerMetrics(resetPeak: boolean): Promise<ProcessSample>;
  /** HTTP/2 transports: the shared connection's receive windows, read back from its session (null before it connects). */
  http2Windows?(): Http2Windows | null;
  /**
   * Phases this transport cannot see (a library that encodes and decodes inside its own calls, e.g.
   * connect-es): reported as null, never as 0. Bytes are then unknown too when clientDecodeMs is listed.
   */
  readonly unmeasured?: readonly ('serverEncodeMs' | 'clientDecodeMs')[];
}

export interface ReplyTally {
  messages: number;
  bytes: number;
  decodeMs: number;
}
