import * as http2 from 'node:http2';
import type { LookupFunction } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type { Http2Windows } from '../contract';
import { lookupOption } from './client-lookup';
import type { TlsSessions } from './tls-sessions';

/** The receive windows of an open client session as node:http2 reports them (null before it connected, or after it closed). */
export function sessionWindows(session: http2.ClientHttp2Session | undefined): Http2Windows | null {
  if (!session || session.connecting || session.destroyed) return null;
  const stream = session.localSettings.initialWindowSize;
  const connection = session.state.effectiveLocalWindowSize;
  return stream === undefined || connection === undefined ? null : { streamBytes: stream, connectionBytes: connection };
}

/** A response body read to its end, as one buffer. */
export async function wholeBody(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/**
 * One HTTP/2 cleartext session (prior knowledge) to server-a's h2c listener, on node:http2: undici 6
 * speaks HTTP/2 only over TLS (ALPN; its connector carries a "TODO: add support for h2c"), so node:http2
 * is the client that speaks h2c. Every request of a call is a stream of the one session, as gRPC's are.
 *
 * `windowBytes` (tuning http2-window) raises both receive windows this side advertises: the stream
 * window by SETTINGS_INITIAL_WINDOW_SIZE, the connection window by setLocalWindowSize (the SETTINGS
 * frame cannot raise it). null keeps node:http2's defaults, 65,535 bytes each, as grpc-js's.
 */
export class Http2Session {
  private session: http2.ClientHttp2Session | undefined;

  constructor(
    private readonly origin: string,
    private readonly windowBytes: number | null,
    /** TLS options for an https:// origin (ALPN h2 is node:http2's own); null in cleartext. */
    private readonly tls: ConnectionOptions | null = null,
    /** The sessions to offer and keep (tuning tls-session-reuse); null: node:http2's default, a full handshake on every connect. */
    private readonly sessions: TlsSessions | null = null,
    /** How a connect looks the server up (tuning cached-lookup; node:http2 passes it on to net/tls connect); null: dns.lookup. */
    private readonly lookup: LookupFunction | null = null,
  ) {}

  /** The session, opened on first use and again after the server or the network closed it. */
  private current(): http2.ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const settings = this.windowBytes === null ? {} : { initialWindowSize: this.windowBytes };
    const resuming = this.tls && this.sessions ? { createConnection: this.sessions.http2Connection(this.origin) } : {};
    const session = http2.connect(this.origin, { settings, ...(this.tls ?? {}), ...lookupOption(this.lookup), ...resuming });
    const windowBytes = this.windowBytes;
    if (windowBytes !== null) session.once('connect', () => session.setLocalWindowSize(windowBytes));
    // A session error fails its open streams (each rejects on its own); it must not crash the client.
    session.on('error', () => undefined);
    session.on('close', () => {
      if (this.session === session) this.session = undefined;
    });
    this.session = session;
    return session;
  }

  /** A request stream on the session (opened first if it is not): for protocols on top of HTTP/2, such as gRPC's (grpc/lean-unary.ts). */
  request(headers: http2.OutgoingHttpHeaders): http2.ClientHttp2Stream {
    return this.current().request(headers);
  }

  /**
   * GET `path`; resolves once the response headers arrive, with the body still to read. The deadline
   * covers the whole reply: when it passes, the stream is cancelled and reading its body fails.
   */
  open(path: string, deadlineMs: number, headers: Record<string, string> = {}): Promise<{ status: number; contentType: string | undefined; body: http2.ClientHttp2Stream }> {
    return new Promise((resolve, reject) => {
      const stream = this.request({ ':method': 'GET', ':path': path, ...headers });
      stream.setTimeout(deadlineMs, () => {
        const error = new Error(`DEADLINE_EXCEEDED: no complete reply within ${deadlineMs} ms`);
        stream.close(http2.constants.NGHTTP2_CANCEL);
        stream.destroy(error);
        reject(error);
      });
      stream.once('response', (reply) => resolve({ status: Number(reply[':status']), contentType: reply['content-type'], body: stream }));
      stream.once('error', reject);
      stream.end();
    });
  }

  /** GET `path`; resolves with the status and the body's bytes once the last byte arrived. */
  async get(path: string, deadlineMs: number): Promise<{ status: number; body: Buffer }> {
    const { status, body } = await this.open(path, deadlineMs);
    return { status, body: await wholeBody(body) };
  }

  /** The receive windows of the open session as node:http2 reports them (null before it connected). */
  windows(): Http2Windows | null {
    return sessionWindows(this.session);
  }

  close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (!session || session.destroyed) return Promise.resolve();
    return new Promise((resolve) => session.close(() => resolve()));
  }
}
