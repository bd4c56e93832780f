import type { HttpService } from '@nestjs/axios';
import type { ClientGrpc, MicroserviceOptions } from '@nestjs/microservices';
import type { BrokerKind, ProcessSample, Settings } from '@bench/config';

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
 * A transport a client benchmarks: the one contract. Every client (Nest, bare, tuned) implements this
 * shape, so the case runner, the blog routes and the bench route never branch on which one they hold.
 */
export interface RowTransport {
  /** Its name in the registry (registry.ts's TransportName): a string here, so the contract imports nothing of the transports that implement it. */
  readonly name: string;
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
  /** Closes what the shared connection keeps open (an HTTP/2 session would keep the process alive). */
  close?(): Promise<void> | void;
}

/**
 * One message call a suite makes again and again, over a connection of its own (the echo and lookup
 * experiments: one request, one small reply). The transports' callers (grpc/caller.ts, stream-caller.ts,
 * json/caller.ts, proto-h1/caller.ts) all have this shape, so the suites' loops never know which they drive.
 */
export interface Caller {
  /**
   * One call: send, wait for the whole reply, decode and check it (a wrong reply rejects). Resolves
   * with the TCP connect time in ms when this call had to open a connection, else undefined.
   */
  call(): Promise<number | undefined>;
  /** Closes the connection or stream; the caller is not used afterwards. */
  close(): Promise<void>;
}

export interface ReplyTally {
  messages: number;
  bytes: number;
  decodeMs: number;
}

/** What the Nest client (apps/client) gives every transport it makes: its settings and Nest's clients. */
export interface NestClientContext {
  settings: Settings;
  /** `@nestjs/axios`, on the agents app.module registers (the blog's HTTP client). */
  http: HttpService;
  /** Nest's gRPC client to server-b (ClientsModule, with grpc/options.ts's options). */
  grpc: ClientGrpc;
}

/**
 * One transport as registered (registry.ts): how each client makes it. Every folder beside this file
 * exports one; the Nest client serves them all, the bare client those with a `bare` maker.
 */
export interface TransportDefinition {
  /** The Nest client's transport (apps/client), its options read from the variant's tunings. */
  nest(context: NestClientContext): RowTransport;
  /** The bare client's (apps/bare: no framework, no tunings); absent: the bare client does not serve it. */
  bare?(settings: Settings): RowTransport;
  /**
   * Nest's microservice transports (nest-tcp, nest-redis, …): server-b's binding (the folder's server.ts),
   * the MicroserviceOptions it connects when the settings name the transport (SERVER_B_MICROSERVICES).
   */
  server?(settings: Settings): MicroserviceOptions;
  /** The broker its calls go through (libs/config BROKER_KINDS), which a run must start for it; absent: none. */
  broker?: BrokerKind;
}
