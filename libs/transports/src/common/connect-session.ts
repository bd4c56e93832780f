import type * as http2 from 'node:http2';
import type { LookupFunction } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { Http2SessionManager } from '@connectrpc/connect-node';
import type { Http2Windows } from '../contract';
import { lookupOption } from './client-lookup';
import { sessionWindows } from './http2-session';
import type { TlsSessions } from './tls-sessions';

/**
 * connect-node's Http2SessionManager (one HTTP/2 connection, kept alive), wrapped to apply tuning
 * http2-window as json-h2 does: the stream window by SETTINGS at connect, the connection window by
 * setLocalWindowSize on the session once it is up (connect-node has no option for it); and to read both
 * back from the session the calls actually used.
 */
/** Shaped as connect-node's session manager interface (NodeHttp2ClientSessionManager, not exported by name). */
export class WindowedSessionManager {
  readonly authority: string;
  private readonly inner: Http2SessionManager;
  private session: http2.ClientHttp2Session | undefined;

  constructor(
    url: string,
    private readonly windowBytes: number | null,
    tls: ConnectionOptions | null = null,
    sessions: TlsSessions | null = null,
    lookup: LookupFunction | null = null,
  ) {
    const settings = windowBytes === null ? {} : { settings: { initialWindowSize: windowBytes } };
    // connect-node passes these to every http2.connect it makes, so each reconnect offers the latest session (tls-session-reuse)
    // and looks the server up through the process's cache (cached-lookup).
    const resuming = tls && sessions ? { createConnection: sessions.http2Connection(new URL(url).origin) } : {};
    this.inner = new Http2SessionManager(url, {}, { ...settings, ...(tls ?? {}), ...lookupOption(lookup), ...resuming });
    this.authority = this.inner.authority;
  }

  async request(method: string, path: string, headers: http2.OutgoingHttpHeaders, options: Omit<http2.ClientSessionRequestOptions, 'signal'>): Promise<http2.ClientHttp2Stream> {
    const stream = await this.inner.request(method, path, headers, options);
    const session = stream.session as http2.ClientHttp2Session | undefined;
    if (session && session !== this.session) {
      this.session = session;
      if (this.windowBytes !== null) session.setLocalWindowSize(this.windowBytes);
    }
    return stream;
  }

  notifyResponseByteRead(stream: http2.ClientHttp2Stream): void {
    this.inner.notifyResponseByteRead(stream);
  }

  windows(): Http2Windows | null {
    return sessionWindows(this.session);
  }

  abort(): void {
    this.inner.abort();
  }
}
