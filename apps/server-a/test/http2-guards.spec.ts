import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { DEFAULT_SETTINGS, HTTP2_LIMITS } from '@bench/config';
import { DROPPED_AT_LIMIT, openStreamsIgnoringLimit, PARTIAL_CLIENT_HELLO, resetFlood, stallOutcome, testServerSecurity } from '@bench/testing';
import { createServerA, createServerAH2 } from '../src/http-platform';

// Issue 47: server-a's listeners under TLS hold an unfinished TLS handshake to the same limit as every
// other listener, and its HTTP/2 listener the same stream and reset-flood policy as server-b's
// (apps/server-b/test/http2-guards.spec.ts).

const HANDSHAKE_MS = 500;
const STREAMS = 10_000;
/** Long enough for the server to read 10,000 HEADERS frames and answer them, here well under it. */
const SETTLE_MS = 3_000;

let tls: ReturnType<typeof testServerSecurity>;
beforeAll(() => (tls = testServerSecurity()));
afterAll(() => tls.remove());

const listeners: [string, () => Promise<INestApplication>][] = [
  ['HTTP/1.1 listener, Express (blog)', () => createServerA({ ...DEFAULT_SETTINGS, handshakeTimeoutMs: HANDSHAKE_MS, security: tls.security })],
  ['HTTP/1.1 listener, Fastify (tuned)', () => createServerA({ ...DEFAULT_SETTINGS, handshakeTimeoutMs: HANDSHAKE_MS, security: tls.security, variant: 'tuned' })],
  ['HTTP/2 listener', () => createServerAH2({ ...DEFAULT_SETTINGS, handshakeTimeoutMs: HANDSHAKE_MS, security: tls.security })],
];

it.each(listeners)('server-a %s under TLS drops an unfinished TLS handshake once the handshake limit passed', async (_listener, create) => {
  const app = await create();
  await app.listen(0, '127.0.0.1');
  try {
    const port = (app.getHttpServer().address() as AddressInfo).port;
    expect(await stallOutcome(port, PARTIAL_CLIENT_HELLO, HANDSHAKE_MS)).toBe(DROPPED_AT_LIMIT);
  } finally {
    await app.close();
  }
});

it(`server-a's HTTP/2 listener ends a reset flood with GOAWAY and holds ${STREAMS} streams to HTTP2_LIMITS.concurrentStreams`, async () => {
  const app = await createServerAH2(DEFAULT_SETTINGS);
  await app.listen(0, '127.0.0.1');
  try {
    const port = (app.getHttpServer().address() as AddressInfo).port;
    expect((await resetFlood(`http://127.0.0.1:${port}`, 20_000, '/health')).goawayCode).not.toBeNull();
    const cap = HTTP2_LIMITS.concurrentStreams.count;
    const streams = await openStreamsIgnoringLimit(port, STREAMS, SETTLE_MS, false, '/health');
    expect(streams.advertised).toBe(cap);
    expect(streams.goawayCode !== null || streams.refused >= STREAMS - cap).toBe(true);
  } finally {
    await app.close();
  }
}, 30_000);
