import type { Http2Server } from 'node:http2';
import type { Server } from '@grpc/grpc-js';
import { limitHttp2Sessions, logTlsStates, type Settings } from '@bench/config';
import { grpcServerCredentials } from './grpc-credentials';

/**
 * Binds a plain grpc-js server (bare server-b) as Nest's strategy binds server-b's: the app's security
 * with its TLS handshake limit, then the HTTP/2 session limits and, under TLS, its log of what
 * connections negotiated. Resolves with the bound port; a bind error is grpc-js's own.
 */
export async function bindGrpcServer(server: Server, url: string, settings: Pick<Settings, 'security' | 'handshakeTimeoutMs'>, app: string): Promise<number> {
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(url, grpcServerCredentials(settings.security, settings.handshakeTimeoutMs), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  limitGrpcSessions(server, settings.handshakeTimeoutMs);
  if (settings.security.mode !== 'plain') logGrpcTlsStates(server, app);
  return port;
}

/**
 * Applies the HTTP/2 session limits (limitHttp2Sessions: handshake, GOAWAY grace, streams, deadline and stall resets) to a bound grpc-js server. grpc-js offers no handshake timeout
 * (grpc.max_connection_idle_ms starts only with the session, and must stay long for idle clients), and
 * keeps its node:http2 servers private: `http2Servers`, a Map keyed by server (grpc-js 1.10 and later).
 * A grpc-js without it fails here, loudly, rather than serving without the limit.
 */
export function limitGrpcSessions(server: Server, handshakeMs: number): void {
  for (const http2Server of grpcHttp2Servers(server, 'the session limits cannot be applied')) limitHttp2Sessions(http2Server, handshakeMs);
}

/** Logs what a bound grpc-js server's TLS connections negotiated (logTlsStates), through the same private map. */
export function logGrpcTlsStates(server: Server, app: string): void {
  for (const http2Server of grpcHttp2Servers(server, 'its TLS cannot be reported')) logTlsStates(http2Server as unknown as Parameters<typeof logTlsStates>[0], app);
}

function grpcHttp2Servers(server: Server, consequence: string): Http2Server[] {
  const servers = (server as unknown as { http2Servers?: unknown }).http2Servers;
  if (!(servers instanceof Map) || servers.size === 0) {
    throw new Error(`grpc-js has no bound HTTP/2 servers in http2Servers (bind first; or grpc-js changed): ${consequence}`);
  }
  return [...(servers.keys() as IterableIterator<Http2Server>)];
}
