// Every TLS handshake the client process makes, timed from TCP connected to secureConnect: undici,
// https.Agent, node:http2 and grpc-js all open their TLS sockets through node:tls connect(), looked up
// on the module at each call, so wrapping it once sees every library's handshakes without changing one.
import type * as TlsModule from 'node:tls';

// The module object itself, which every library calls through (a namespace import is a copy whose properties cannot be replaced).
const tls = process.getBuiltinModule('node:tls') as typeof TlsModule;

/** The handshakes of a stretch of calls: how many, how many resumed a cached session, how long they took. */
export interface TlsHandshakes {
  count: number;
  /** Resumed a TLS session the library had cached (an abbreviated handshake). */
  resumed: number;
  /** Each handshake from TCP connected (or from tls.connect() on a socket already connected) to secureConnect. */
  meanMs: number;
  maxMs: number;
  /** What the last one negotiated. */
  protocol: string | null;
  alpn: string | null;
}

interface Handshake {
  ms: number;
  resumed: boolean;
  protocol: string | null;
  alpn: string | null;
}

let finished: Handshake[] = [];
let lastError: string | null = null;
let refusalHint: string | null = null;
/** The TLS layer's own errors (OpenSSL's, Node's certificate checks), not a library's socket errors. */
const TLS_ERROR = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/;
let watching = false;

/**
 * Starts timing every client TLS handshake of this process (idempotent). `hint`: what to add to every
 * failed call's reason, for a client that knows it will be refused (mtls without a certificate).
 */
export function watchTlsHandshakes(hint: string | null = null): void {
  refusalHint = hint;
  if (watching) return;
  watching = true;
  const original = tls.connect;
  const timed = function (this: unknown, ...args: unknown[]): TlsModule.TLSSocket {
    const started = performance.now();
    const socket = (original as (...a: unknown[]) => TlsModule.TLSSocket).apply(this, args);
    let connected = started;
    socket.once('connect', () => (connected = performance.now()));
    socket.once('secureConnect', () => {
      finished.push({ ms: performance.now() - connected, resumed: socket.isSessionReused(), protocol: socket.getProtocol(), alpn: socket.alpnProtocol || null });
    });
    // Listening adds no handling of its own: every library that opened the socket keeps its error listener.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (TLS_ERROR.test(error.code ?? '')) lastError = `${error.code}: ${error.message}`;
    });
    return socket;
  };
  (tls as { connect: typeof TlsModule.connect }).connect = timed as typeof TlsModule.connect;
}

/** The last error a client TLS socket of this process reported since the last take (null: none), and forgets it. */
export function takeTlsError(): string | null {
  const taken = lastError;
  lastError = null;
  return [taken, refusalHint].filter(Boolean).join('; ') || null;
}

/** Whether this process times its handshakes (a client under TLS). */
export function watchingTlsHandshakes(): boolean {
  return watching;
}

/** The handshakes finished since the last take (null when there were none), and forgets them. */
export function takeTlsHandshakes(): TlsHandshakes | null {
  const taken = finished;
  finished = [];
  if (taken.length === 0) return null;
  const last = taken[taken.length - 1];
  return {
    count: taken.length,
    resumed: taken.filter((h) => h.resumed).length,
    meanMs: taken.reduce((sum, h) => sum + h.ms, 0) / taken.length,
    maxMs: Math.max(...taken.map((h) => h.ms)),
    protocol: last.protocol,
    alpn: last.alpn,
  };
}
