import type { Server as HttpServer } from 'node:http';
import type { Http2Server, Http2Session } from 'node:http2';
import { CONNECTION_LIMITS } from './connection-limits';
import { HTTP2_LIMITS } from './http2-limits';
import { resetStalledReplies } from './stalled-replies';
import { resetStreamsPastDeadline } from './stream-deadlines';

/**
 * An HTTP/1.1 listener (node:http, Express, Fastify) drops a connection whose request head has not
 * arrived within `handshakeMs`, or whose whole request has not within CONNECTION_LIMITS.request.
 * Idle keep-alive connections are left to each variant's keepAliveTimeout (tuning long-keep-alive).
 * Call before listen: node:http reads the checking interval when it starts listening.
 */
export function limitHttp1Connections(server: HttpServer, handshakeMs: number): void {
  server.headersTimeout = handshakeMs;
  server.requestTimeout = Math.max(CONNECTION_LIMITS.request.ms, handshakeMs);
  // Node 18.12+ has it; @types/node 20 does not declare it.
  (server as HttpServer & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(CONNECTION_LIMITS.checkEvery.ms, handshakeMs);
}

/**
 * An HTTP/2 listener (node:http2, under Fastify or grpc-js) destroys a session whose client has not sent
 * the connection preface and its SETTINGS within `handshakeMs` (node:http2 has no such timeout; its
 * session timeout is an idle one, and grpc-js sets none), and one whose client sent GOAWAY after
 * CONNECTION_LIMITS.goawayGrace. 'remoteSettings' is emitted once nghttp2 has read the preface and
 * SETTINGS, so it marks a finished handshake. Each new session offers at most
 * HTTP2_LIMITS.concurrentStreams streams (node:http2's default, like grpc-js's, is 2^32-1), and a stream
 * still open after its call's deadline, or whose reply stalled, is reset (resetStreamsPastDeadline,
 * resetStalledReplies): what a caller that does not read holds is returned. A TLS listener's handshake
 * limit is its own `handshakeTimeout`, set where it is created.
 */
export function limitHttp2Sessions(server: Pick<Http2Server, 'on' | 'updateSettings'>, handshakeMs: number): void {
  server.updateSettings({ maxConcurrentStreams: HTTP2_LIMITS.concurrentStreams.count });
  resetStreamsPastDeadline(server);
  resetStalledReplies(server);
  server.on('session', (session: Http2Session) => {
    const handshake = setTimeout(() => session.destroy(), handshakeMs);
    handshake.unref();
    let leaving: NodeJS.Timeout | undefined;
    session.once('remoteSettings', () => clearTimeout(handshake));
    session.once('goaway', () => {
      leaving = setTimeout(() => session.destroy(), CONNECTION_LIMITS.goawayGrace.ms);
      leaving.unref();
    });
    session.once('close', () => (clearTimeout(handshake), clearTimeout(leaving)));
  });
}
