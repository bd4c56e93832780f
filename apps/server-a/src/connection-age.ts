import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Closes each HTTP/1.1 connection once it is `maxAgeMs` old: the next reply on it carries
 * `Connection: close` and the socket ends after it, so no request is lost and the client reconnects
 * (behind a Service's virtual IP, to whichever replica the balancer picks then). This is HTTP/1.1's
 * counterpart of gRPC's grpc.max_connection_age_ms (server-b), set by MAX_CONNECTION_AGE_MS.
 */
export function closeAgedConnections(server: Server, maxAgeMs: number): void {
  const opened = new WeakMap<Socket, number>();
  server.on('connection', (socket: Socket) => opened.set(socket, performance.now()));
  // Before Nest's handler: the header must be set before the reply's head is written.
  server.prependListener('request', (req, res) => {
    const since = opened.get(req.socket);
    if (since !== undefined && performance.now() - since >= maxAgeMs && !res.headersSent) res.setHeader('Connection', 'close');
  });
}
