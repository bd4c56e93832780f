import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

/**
 * How many refused TLS handshakes a process logs one line each for: beyond it, one line per window says
 * how many more there were and why. The Go servers take the same numbers (security.RefusalLogLines).
 */
export const REFUSAL_LOG = Object.freeze({
  lines: 10,
  windowMs: 10_000,
  why:
    'a refusal is worth a line (a misissued certificate, a client of another mesh), but a caller can make one per connection ' +
    'for free, thousands a second: 10 lines per 10 s show the first of a burst with its peers, and the window\'s count the rest',
});

/** OpenSSL's verification codes (socket.authorizationError) in words: what was wrong with the peer's certificate. */
const CERTIFICATE_REASONS: Readonly<Record<string, string>> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unknown CA',
  UNABLE_TO_GET_ISSUER_CERT: 'unknown CA',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unknown CA',
  SELF_SIGNED_CERT_IN_CHAIN: 'unknown CA',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'unknown CA',
  CERT_UNTRUSTED: 'unknown CA',
  CERT_SIGNATURE_FAILURE: 'unknown CA',
  CERT_HAS_EXPIRED: 'expired certificate',
  CERT_NOT_YET_VALID: 'certificate not yet valid',
  INVALID_PURPOSE: 'no client EKU (the certificate is not for client authentication)',
  CERT_REVOKED: 'revoked certificate',
};

/** Why the handshake failed, in words with the code that says it; never the error's text (it may quote what the peer sent). */
export function refusalReason(error: NodeJS.ErrnoException, socket: TLSSocket): string {
  // Node verifies the peer's chain after OpenSSL's handshake and destroys the socket without an alert:
  // the reason is only in authorizationError, the error is the resulting ECONNRESET.
  const verification = socket.authorizationError as unknown as string | null | undefined;
  if (verification) return `${CERTIFICATE_REASONS[verification] ?? 'bad certificate'} (${verification})`;
  const code = error.code ?? 'unknown';
  if (code === 'ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE') return `no certificate (${code})`;
  if (code === 'ERR_TLS_HANDSHAKE_TIMEOUT') return `handshake timeout (${code})`;
  if (code.startsWith('ERR_SSL_')) return `protocol error (${code})`;
  return `the peer closed the connection during the handshake (${code}; it may have refused this server's certificate)`;
}

/** One process's refusal lines, rate-limited (REFUSAL_LOG); one per app name, shared by its listeners. */
export class RefusalLog {
  private logged = 0;
  private readonly suppressed = new Map<string, number>();
  private window: NodeJS.Timeout | null = null;

  constructor(
    private readonly app: string,
    private readonly limit: { lines: number; windowMs: number } = REFUSAL_LOG,
    private readonly write: (line: string) => void = (line) => console.warn(line),
  ) {}

  refused(peer: string, reason: string): void {
    this.window ??= setTimeout(() => this.closeWindow(), this.limit.windowMs).unref();
    if (this.logged < this.limit.lines) {
      this.logged++;
      this.write(`${this.app}: refused a TLS handshake from ${peer}: ${reason}`);
      return;
    }
    const kind = reason.replace(/ \(.*$/, '');
    this.suppressed.set(kind, (this.suppressed.get(kind) ?? 0) + 1);
  }

  private closeWindow(): void {
    const total = [...this.suppressed.values()].reduce((sum, n) => sum + n, 0);
    if (total > 0) {
      const kinds = [...this.suppressed].map(([kind, n]) => `${kind} ×${n}`).join(', ');
      this.write(`${this.app}: ${total} more refused TLS handshakes not logged in the last ${this.limit.windowMs / 1000} s (at most ${this.limit.lines} lines per ${this.limit.windowMs / 1000} s): ${kinds}`);
    }
    this.logged = 0;
    this.suppressed.clear();
    this.window = null;
  }
}

const LOGS = new Map<string, RefusalLog>();

/**
 * Logs each handshake a TLS listener refuses (tlsClientError), with the reason and the peer's address,
 * never a certificate's or key's bytes; rate-limited per app (REFUSAL_LOG). A connection that closed
 * before sending a byte (a TCP health check, a port scan) is not a refusal and is not logged.
 */
export function logTlsRefusals(server: RefusingServer, app: string): void {
  let log = LOGS.get(app);
  if (!log) LOGS.set(app, (log = new RefusalLog(app)));
  const refusals = log;
  // The peer's address, read as the TCP connection arrives: once Node has destroyed a refused TLS socket
  // neither it nor the TCP socket under it can tell it any more.
  const peers = new WeakMap<object, string>();
  server.on('connection', (tcp: Socket) => peers.set(tcp, `${tcp.remoteAddress}:${tcp.remotePort}`));
  server.on('tlsClientError', (error: Error, socket: TLSSocket) => {
    // `_parent` is that TCP socket (node:tls's name for it; no public accessor).
    const tcp = (socket as TLSSocket & { _parent?: Socket })._parent;
    if (tcp && tcp.bytesRead === 0) return;
    refusals.refused((tcp && peers.get(tcp)) ?? 'an unknown peer', refusalReason(error as NodeJS.ErrnoException, socket));
  });
}

/** A TLS listener: node:tls, https, http2's secure server, grpc-js's. */
export interface RefusingServer {
  on(event: 'connection', listener: (socket: Socket) => void): unknown;
  on(event: 'tlsClientError', listener: (error: Error, socket: TLSSocket) => void): unknown;
}
