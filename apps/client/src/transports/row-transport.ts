import type { ProcessSample } from '@bench/config';
import type { Observable } from 'rxjs';

export const TRANSPORT_NAMES = ['json', 'grpc'] as const;
export type TransportName = (typeof TRANSPORT_NAMES)[number];

/** One way to reach a server: the app's long-lived one, or a fresh one opened for a cold call. */
export interface Connection {
  /** One request for `rows` rows. Lazy, like the blog's observables: nothing is sent until subscribed. */
  getSamples(rows: number): Observable<unknown>;
  close(): Promise<void>;
}

/**
 * A transport the client benchmarks. Both implementations have this shape so the case runner,
 * the blog routes and the bench route never branch on which one they hold.
 */
export interface RowTransport {
  readonly name: TransportName;
  /** The connection the app keeps for its lifetime, as the blog's HttpService and ClientGrpc did. */
  shared(): Connection;
  /** A brand-new connection whose first call pays connection set-up. */
  openFresh(): Connection;
  /** Reply bodies decoded since the last take: how many, and their encoded bytes. */
  takeReplyBytes(): { messages: number; bytes: number };
  /** The serving process's own CPU and memory reading (outside any timed call). */
  readServerMetrics(resetPeak: boolean): Promise<ProcessSample>;
}

export const JSON_TRANSPORT = Symbol('JSON_TRANSPORT');
export const GRPC_TRANSPORT = Symbol('GRPC_TRANSPORT');
export const SAMPLE_GRPC_CLIENT = 'SAMPLE_GRPC_CLIENT';
