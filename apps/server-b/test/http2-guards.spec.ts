import { DEFAULT_SETTINGS, HTTP2_LIMITS, type Settings } from '@bench/config';
import { DROPPED_AT_LIMIT, freePort, grpcFrame, http2Request, openStreamsIgnoringLimit, PARTIAL_CLIENT_HELLO, resetFlood, stallOutcome, testServerSecurity } from '@bench/testing';
import { createServerB, type ServerB } from '../src/server';

// Issue 47: server-b as main.ts starts it holds a handshake, a stream count and a reset flood to the
// policy every listener has (CONNECTION_LIMITS.handshake, HTTP2_LIMITS).

const HANDSHAKE_MS = 500;
const GRPC = { 'content-type': 'application/grpc', te: 'trailers' };
const FLOOD = 20_000;
const STREAMS = 10_000;
/** Long enough for the server to read 10,000 HEADERS frames and answer them, here well under it. */
const SETTLE_MS = 3_000;

async function started(settings: Settings): Promise<{ app: ServerB; port: number }> {
  const port = await freePort();
  const app = await createServerB({ ...settings, handshakeTimeoutMs: HANDSHAKE_MS }, `127.0.0.1:${port}`, false);
  await app.listen();
  return { app, port };
}

describe('server-b under TLS: an unfinished TLS handshake', () => {
  let tls: ReturnType<typeof testServerSecurity>;
  let server: { app: ServerB; port: number };
  beforeAll(async () => {
    tls = testServerSecurity();
    server = await started({ ...DEFAULT_SETTINGS, security: tls.security });
  });
  afterAll(async () => (await server.app.close(), tls.remove()));

  it.each([
    ['sends nothing', Buffer.alloc(0)],
    ['stops inside its ClientHello', PARTIAL_CLIENT_HELLO],
  ])('is dropped once the handshake limit passed when the caller %s', async (_what, bytes) => {
    expect(await stallOutcome(server.port, bytes, HANDSHAKE_MS)).toBe(DROPPED_AT_LIMIT);
  });

  it(`offers HTTP2_LIMITS.concurrentStreams (${HTTP2_LIMITS.concurrentStreams.count}) streams over TLS too`, async () => {
    expect((await openStreamsIgnoringLimit(server.port, 1, SETTLE_MS / 3, true)).advertised).toBe(HTTP2_LIMITS.concurrentStreams.count);
  });
});

describe('server-b: floods on one connection', () => {
  let server: { app: ServerB; port: number };
  beforeAll(async () => (server = await started(DEFAULT_SETTINGS)));
  afterAll(() => server.app.close());

  const ready = async () => (await http2Request(`http://127.0.0.1:${server.port}`, { ':path': '/grpc.health.v1.Health/Check', ...GRPC }, grpcFrame(Buffer.alloc(0)))).trailers['grpc-status'];

  it(`ends a connection that resets ${FLOOD} streams with GOAWAY, and stays ready`, async () => {
    const flood = await resetFlood(`http://127.0.0.1:${server.port}`, FLOOD);
    expect(flood.goawayCode).not.toBeNull();
    expect(flood.sent).toBeLessThan(FLOOD);
    expect(await ready()).toBe('0');
  }, 30_000);

  it(`holds ${STREAMS} streams opened at once on one connection to HTTP2_LIMITS.concurrentStreams, and stays ready`, async () => {
    const cap = HTTP2_LIMITS.concurrentStreams.count;
    const outcome = await openStreamsIgnoringLimit(server.port, STREAMS, SETTLE_MS);
    expect(outcome.advertised).toBe(cap);
    // Past the limit the server refuses each stream or ends the connection: it never holds more than `cap`.
    expect(outcome.goawayCode !== null || outcome.refused >= STREAMS - cap).toBe(true);
    expect(await ready()).toBe('0');
  }, 30_000);
});
