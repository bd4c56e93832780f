import { constants, type Http2Server, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import { CONNECTION_LIMITS } from './connection-limits';

/** grpc-timeout's units (the gRPC over HTTP/2 spec: 1 to 8 digits, then one of them), in ms. */
const GRPC_TIMEOUT_UNITS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 0.001, n: 0.000_001 };

/** A call's deadline from its headers: gRPC's `grpc-timeout` or Connect's `connect-timeout-ms`, in ms; null when it has none we can read. */
export function streamDeadlineMs(headers: IncomingHttpHeaders): number | null {
  const grpc = /^(\d{1,8})([HMSmun])$/.exec(String(headers['grpc-timeout'] ?? ''));
  if (grpc) return Number(grpc[1]) * GRPC_TIMEOUT_UNITS[grpc[2]];
  const connect = /^\d{1,10}$/.exec(String(headers['connect-timeout-ms'] ?? ''));
  return connect ? Number(connect[0]) : null;
}

/**
 * Resets (RST_STREAM, CANCEL) every stream still open CONNECTION_LIMITS.deadlineGrace after its call's
 * deadline. grpc-js and connect-es answer a passed deadline with a status sent after the reply they
 * already queued, so for a caller that does not read they keep the whole reply (150 MB at 1,000,000
 * rows) until it reads or its connection closes; a reset drops what is queued, and the memory with it.
 */
export function resetStreamsPastDeadline(server: Pick<Http2Server, 'on'>): void {
  server.on('stream', (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => {
    const deadlineMs = streamDeadlineMs(headers);
    if (deadlineMs === null) return;
    const reset = setTimeout(() => stream.closed || stream.close(constants.NGHTTP2_CANCEL), deadlineMs + CONNECTION_LIMITS.deadlineGrace.ms);
    reset.unref();
    stream.once('close', () => clearTimeout(reset));
  });
}
