import type { LookupFunction } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { createClient, type Client, type Transport } from '@connectrpc/connect';
import { http2WindowFor, type ProcessSample, type Settings } from '@bench/config';
import { connectSample, MAX_MESSAGE_BYTES } from '@bench/proto';
import type { Connection, Http2Windows, ReplyTally, RowTransport } from '../contract';
import { lookupFor } from './client-lookup';
import { clientTls, tlsSessionsFor } from './client-tls';
import { WindowedSessionManager } from './connect-session';
import type { TlsSessions } from './tls-sessions';

/** What every connect-es transport's options share (connect-node's options of both protocols take these). */
export interface ConnectCommon {
  baseUrl: string;
  httpVersion: '2';
  sessionManager: WindowedSessionManager;
  readMaxBytes: number;
  writeMaxBytes: number;
  acceptCompression: [];
}

/** What a connect-* client is made of: server-a's HTTP/2 listener, the protocol, and what the variant's tunings set. */
export interface ConnectOptions {
  baseUrl: string;
  /** connect-node's transport for the protocol and format (the one thing the three connect-* folders differ in). */
  protocol: (common: ConnectCommon) => Transport;
  /** Tuning http2-window (null: node:http2's 64 KiB). */
  windowBytes: number | null;
  /** The run's TLS (null in cleartext), tls-session-reuse's sessions, cached-lookup's lookup. */
  tls: ConnectionOptions | null;
  sessions: TlsSessions | null;
  lookup: LookupFunction | null;
}

/** The variant's options of a connect-* transport speaking `protocol`. */
export function connectOptions(settings: Settings, protocol: ConnectOptions['protocol']): ConnectOptions {
  return { baseUrl: settings.serverAH2Url, protocol, windowBytes: http2WindowFor(settings.variant), tls: clientTls(settings), sessions: tlsSessionsFor(settings), lookup: lookupFor(settings) };
}

type SampleClient = Client<typeof connectSample.SampleService>;

/**
 * Transports connect-json, connect-proto and connect-grpc: connect-es's client (createConnectTransport
 * with JSON or binary bodies, createGrpcTransport for the gRPC protocol) calling the connect-es handler
 * on server-a's HTTP/2 cleartext listener, all over HTTP/2 so that against `grpc` only the library (and,
 * for the Connect protocol, its framing and codec) differs. Each transport keeps one session manager
 * (one HTTP/2 connection); tuning http2-window raises its windows as for grpc-js and json-h2.
 *
 * connect-es encodes and decodes inside its own calls, so the server's encoding and the client's
 * decoding are not observed here: those phases and the reply bytes are reported as unknown (null).
 */
export class ConnectTransport implements RowTransport {
  readonly unmeasured = ['serverEncodeMs', 'clientDecodeMs'] as const;
  private readonly manager: WindowedSessionManager;
  private readonly sharedConnection: Connection;

  constructor(
    readonly name: string,
    private readonly options: ConnectOptions,
    private readonly readMetrics: (resetPeak: boolean) => Promise<ProcessSample>,
  ) {
    this.manager = this.sessionManager();
    this.sharedConnection = this.connect(this.manager, async () => undefined);
  }

  private sessionManager(): WindowedSessionManager {
    const { baseUrl, windowBytes, tls, sessions, lookup } = this.options;
    return new WindowedSessionManager(baseUrl, windowBytes, tls, sessions, lookup);
  }

  private transport(manager: WindowedSessionManager): Transport {
    // acceptCompression []: connect-es offers gzip and br by default and its handler then compresses every
    // reply over 1 KiB, while grpc-js and the JSON transports send bodies as they are. Without it,
    // connect-grpc would not be the same wire as grpc, and the library factor would measure gzip.
    return this.options.protocol({
      baseUrl: this.options.baseUrl,
      httpVersion: '2',
      sessionManager: manager,
      readMaxBytes: MAX_MESSAGE_BYTES,
      writeMaxBytes: MAX_MESSAGE_BYTES,
      acceptCompression: [],
    });
  }

  shared(): Connection {
    return this.sharedConnection;
  }

  openFresh(): Connection {
    const manager = this.sessionManager();
    return this.connect(manager, async () => manager.abort());
  }

  takeReplies(): ReplyTally {
    return { messages: 0, bytes: 0, decodeMs: 0 };
  }

  readServerMetrics(resetPeak: boolean): Promise<ProcessSample> {
    return this.readMetrics(resetPeak);
  }

  http2Windows(): Http2Windows | null {
    return this.manager.windows();
  }

  close(): void {
    this.manager.abort();
  }

  private connect(manager: WindowedSessionManager, close: () => Promise<void>): Connection {
    const client: SampleClient = createClient(connectSample.SampleService, this.transport(manager));
    return {
      fetchAll: (rows, requests, deadlineMs) => Promise.all(Array.from({ length: requests }, () => client.getSamples({ count: rows }, { timeoutMs: deadlineMs }))),
      close,
    };
  }
}
