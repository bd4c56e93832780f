import type * as grpc from '@grpc/grpc-js';
import { DEFAULT_SETTINGS, HTTP2_LIMITS, type Settings } from '@bench/config';
import { bindGrpcServer } from '@bench/proto';
import { DROPPED_AT_LIMIT, grpcFrame, http2Request, openStreamsIgnoringLimit, PARTIAL_CLIENT_HELLO, resetFlood, stallOutcome, testServerSecurity } from '@bench/testing';
import { createGrpcServer } from '../src/grpc-server';

// Issue 47: bare server-b, bound as its main.ts binds it, holds the same handshake, stream and
// reset-flood policy as the Nest one (apps/server-b/test/http2-guards.spec.ts).

const HANDSHAKE_MS = 500;
const FLOOD = 20_000;
const STREAMS = 10_000;
/** Long enough for the server to read 10,000 HEADERS frames and answer them, here well under it. */
const SETTLE_MS = 3_000;

async function bound(settings: Settings): Promise<{ server: grpc.Server; port: number }> {
  const server = createGrpcServer(settings);
  const port = await bindGrpcServer(server, '127.0.0.1:0', { ...settings, handshakeTimeoutMs: HANDSHAKE_MS }, 'server-b');
  return { server, port };
}

it('bare server-b under TLS drops an unfinished TLS handshake once the handshake limit passed', async () => {
  const tls = testServerSecurity();
  const { server, port } = await bound({ ...DEFAULT_SETTINGS, security: tls.security });
  try {
    expect(await stallOutcome(port, PARTIAL_CLIENT_HELLO, HANDSHAKE_MS)).toBe(DROPPED_AT_LIMIT);
  } finally {
    server.forceShutdown();
    tls.remove();
  }
});

it(`bare server-b ends a ${FLOOD}-reset flood with GOAWAY, holds ${STREAMS} streams to HTTP2_LIMITS.concurrentStreams, and stays ready`, async () => {
  const { server, port } = await bound(DEFAULT_SETTINGS);
  const health = () => http2Request(`http://127.0.0.1:${port}`, { ':path': '/grpc.health.v1.Health/Check', 'content-type': 'application/grpc', te: 'trailers' }, grpcFrame(Buffer.alloc(0)));
  try {
    expect((await resetFlood(`http://127.0.0.1:${port}`, FLOOD)).goawayCode).not.toBeNull();
    expect((await health()).trailers['grpc-status']).toBe('0');
    const cap = HTTP2_LIMITS.concurrentStreams.count;
    const streams = await openStreamsIgnoringLimit(port, STREAMS, SETTLE_MS);
    expect(streams.advertised).toBe(cap);
    expect(streams.goawayCode !== null || streams.refused >= STREAMS - cap).toBe(true);
    expect((await health()).trailers['grpc-status']).toBe('0');
  } finally {
    server.forceShutdown();
  }
}, 30_000);
