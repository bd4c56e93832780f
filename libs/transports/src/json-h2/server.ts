import { CONNECTION_LIMITS, REQUEST_LIMITS, type Settings } from '@bench/config';
import { listenerTls } from '../common/server-tls';

// json-h2's server binding: the HTTP/2 listener server-a serves the blog's JSON route on (json/server.ts's
// route and framing), and the Connect transports beside it.

/**
 * The options of that listener's Fastify instance (Nest's FastifyAdapter): HTTP/2 with prior knowledge
 * (h2c) in cleartext, h2 by ALPN under TLS (allowHTTP1 false: a client that cannot speak h2 is refused in
 * the handshake); request bodies up to REQUEST_LIMITS.http; idle sessions closed (GOAWAY) after
 * CONNECTION_LIMITS.http2Idle. node:http2's other defaults apply (a reply's pace is the client's receive
 * window, which the client chooses: tuning http2-window).
 */
export function jsonH2ListenerOptions(settings: Settings): Record<string, unknown> & { http2: true } {
  const https = settings.security.mode === 'plain' ? {} : { https: { ...listenerTls(settings, ['h2']), allowHTTP1: false } };
  return { http2: true, bodyLimit: REQUEST_LIMITS.http.bytes, http2SessionTimeout: CONNECTION_LIMITS.http2Idle.ms, ...https };
}
