import type { ProcessSample } from '@bench/config';

export const TRANSPORT_NAMES = ['json', 'grpc'] as const;
export type TransportName = (typeof TRANSPORT_NAMES)[number];

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
}

export interface ReplyTally {
  messages: number;
  bytes: number;
  decodeMs: number;
}
