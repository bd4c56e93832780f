import type { ClientSessionOptions, SecureClientSessionOptions } from 'node:http2';
import { Agent as HttpsAgent, type AgentOptions } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { buildConnector } from 'undici';

/**
 * Tuning tls-session-reuse: the TLS session (TLS 1.3 ticket) each server last gave this client, kept per
 * origin and offered on every new connection to it, whichever library opens the connection, so a new
 * connection resumes (an abbreviated handshake: no certificate sent or verified) instead of handshaking
 * in full. Libraries keep such a cache only per agent or pool (https.Agent, undici), or not at all
 * (node:http2, grpc-js, connect-node): docs/security.md says which resume by default.
 */
export class TlsSessions {
  private readonly sessions = new Map<string, Buffer>();

  /** The `session` option for a new connection to `origin` (empty until a server has given one). */
  offer(origin: string): { session?: Buffer } {
    const session = this.sessions.get(origin);
    return session ? { session } : {};
  }

  /** Keeps every session (ticket) `socket` receives from `origin`, the latest one offered next. */
  keep(origin: string, socket: TLSSocket): void {
    socket.on('session', (session: Buffer) => this.sessions.set(origin, session));
  }

  /**
   * node:http2's createConnection for `origin` (https): what http2.connect does itself (tls.connect with
   * ALPN h2 and the host as SNI unless it is an address), offering and keeping this origin's session.
   */
  http2Connection(origin: string): SecureClientSessionOptions['createConnection'] {
    return (authority: URL, options: ClientSessionOptions | SecureClientSessionOptions): Socket => {
      const host = authority.hostname;
      const socket = tlsConnect({
        ...(options as ConnectionOptions),
        host,
        port: Number(authority.port) || 443,
        ALPNProtocols: ['h2'],
        ...(isIP(host) ? {} : { servername: host }),
        ...this.offer(origin),
      });
      this.keep(origin, socket);
      return socket;
    };
  }

  /** An undici `connect` function for `origin` with `tls`: each new socket offers this origin's session and keeps what it receives. */
  undiciConnector(origin: string, tls: ConnectionOptions): buildConnector.connector {
    return (options, callback) =>
      buildConnector({ ...(tls as buildConnector.BuildOptions), ...this.offer(origin) })(options, (error, socket) => {
        if (socket) this.keep(origin, socket as TLSSocket);
        (callback as (error: Error | null, socket: unknown) => void)(error, socket);
      });
  }

  /** An https.Agent (the blog's axios) whose new sockets offer and keep the origin's session besides the agent's own cache. */
  httpsAgent(options: AgentOptions): HttpsAgent {
    return new ResumingAgent(this, options);
  }
}

/** https.Agent offering each new socket the session its origin last gave (Node's agent itself offers only its own cache's). */
class ResumingAgent extends HttpsAgent {
  constructor(
    private readonly sessions: TlsSessions,
    options: AgentOptions,
  ) {
    super(options);
  }

  override createConnection(connect: ConnectionOptions & { host?: string; port?: number }, callback?: unknown): Socket {
    const origin = `https://${connect.host}:${connect.port}`;
    const create = HttpsAgent.prototype.createConnection as unknown as (this: HttpsAgent, o: ConnectionOptions, c?: unknown) => TLSSocket;
    const socket = create.call(this, { ...this.sessions.offer(origin), ...connect }, callback);
    this.sessions.keep(origin, socket);
    return socket;
  }
}
