import { DEFAULT_SETTINGS, REQUEST_LIMITS } from '@bench/config';
import { echoCodec } from '@bench/proto';
import { buildEchoContent, ECHO_MAX_CONTENT } from '@bench/samples';
import { BOMB_INFLATED_BYTES, freePort, grpcFrame, gzipOfZeros, HALF_HTTP2_PREFACE, http2Request, http2SessionOpenAfter, rssGrowthDuring, stallOutcome, DROPPED_AT_LIMIT } from '@bench/testing';
import { createServerB, type ServerB } from '../src/server';

// Issue 31's hostile callers against server-b as main.ts starts it: a gzip bomb, an oversized message,
// undecodable bytes on every client-facing method, a connection that stops inside the HTTP/2 preface.

const HANDSHAKE_MS = 500;
const BOMB_RSS_BOUND = BOMB_INFLATED_BYTES / 2;
const UNARY_TEST = '/echo.DataManager/UnaryTest';
const GRPC = { 'content-type': 'application/grpc', te: 'trailers' };

describe('server-b request limits and handshakes', () => {
  let app: ServerB;
  let port: number;
  let base: string;

  beforeAll(async () => {
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await createServerB({ ...DEFAULT_SETTINGS, handshakeTimeoutMs: HANDSHAKE_MS }, `127.0.0.1:${port}`, false);
    await app.listen();
  });
  afterAll(() => app.close());

  it('refuses a gzip bomb (grpc-encoding: gzip) with RESOURCE_EXHAUSTED without inflating it', async () => {
    const bomb = await gzipOfZeros();
    const { result, grewBytes } = await rssGrowthDuring(() => http2Request(base, { ':path': UNARY_TEST, ...GRPC, 'grpc-encoding': 'gzip' }, grpcFrame(bomb, true)));
    expect(result.trailers['grpc-status']).toBe('8');
    expect(grewBytes).toBeLessThan(BOMB_RSS_BOUND);
  });

  it('refuses a message over REQUEST_LIMITS.grpc with RESOURCE_EXHAUSTED, and answers the largest echo', async () => {
    const over = await http2Request(base, { ':path': UNARY_TEST, ...GRPC }, grpcFrame(Buffer.alloc(REQUEST_LIMITS.grpc.bytes + 1)));
    expect(over.trailers['grpc-status']).toBe('8');
    const codec = echoCodec();
    const largest = await http2Request(base, { ':path': UNARY_TEST, ...GRPC }, grpcFrame(codec.requestSerialize({ content: buildEchoContent(ECHO_MAX_CONTENT) })));
    expect(largest.trailers['grpc-status']).toBe('0');
    expect(codec.responseDeserialize(largest.body.subarray(5)).content).toHaveLength(ECHO_MAX_CONTENT);
  });

  it.each(['/sample.SampleService/GetSamples', UNARY_TEST, '/lookup.UserLookup/GetUser', '/payloads.orders.OrdersService/GetOrders'])(
    '%s answers undecodable bytes with INVALID_ARGUMENT',
    async (path) => {
      const answer = await http2Request(base, { ':path': path, ...GRPC }, grpcFrame(Buffer.from([0x08, 0xff])));
      expect(answer.trailers['grpc-status']).toBe('3');
    },
  );

  it('drops a connection that stops half-way through the HTTP/2 preface', async () => {
    expect(await stallOutcome(port, HALF_HTTP2_PREFACE, HANDSHAKE_MS)).toBe(DROPPED_AT_LIMIT);
  });

  it('keeps a session that finished its handshake past the handshake limit', async () => {
    expect(await http2SessionOpenAfter(base, 3 * HANDSHAKE_MS)).toBe(true);
  });
});
