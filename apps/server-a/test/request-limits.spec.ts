import type { INestApplication } from '@nestjs/common';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { DEFAULT_SETTINGS, REQUEST_LIMITS, type NestVariant } from '@bench/config';
import { echoCodec, PROTOBUF_MEDIA_TYPE } from '@bench/proto';
import { buildEchoContent, ECHO_MAX_CONTENT } from '@bench/samples';
import { BOMB_INFLATED_BYTES, grpcFrame, gzipOfZeros, HALF_HTTP2_PREFACE, HALF_REQUEST_HEAD, http2Request, http2SessionOpenAfter, rssGrowthDuring, stallOutcome, DROPPED_AT_LIMIT } from '@bench/testing';
import { createServerA, createServerAH2 } from '../src/http-platform';

// Issue 31's hostile callers against server-a: decompression bombs, oversized and undecodable bodies, and
// connections that stop half-way through their handshake. Behaviour only: every bound below is one a
// defect blows past (an inflated bomb grows RSS by 50 MB; a connection never dropped stays open).

/** Short, so a test sees the drop; the default (10 s) is the same code path. */
const HANDSHAKE_MS = 500;
/** An inflated 50 MB bomb grows RSS by at least that; a refused one by a few MB of noise. */
const BOMB_RSS_BOUND = BOMB_INFLATED_BYTES / 2;
const settings = { ...DEFAULT_SETTINGS, handshakeTimeoutMs: HANDSHAKE_MS };
const GET_SAMPLES = '/sample.SampleService/GetSamples';

let bomb: Buffer;
beforeAll(async () => {
  bomb = await gzipOfZeros();
});

function portOf(app: INestApplication): number {
  return (app.getHttpServer().address() as AddressInfo).port;
}

describe.each<[string, NestVariant]>([
  ['Express (blog)', 'blog'],
  ['Fastify (tuned)', 'tuned'],
])('server-a HTTP/1.1 listener on %s', (_platform, variant) => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    app = await createServerA({ ...settings, variant });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${portOf(app)}`;
  });
  afterAll(() => app.close());

  it('refuses a gzip JSON body with 415 without inflating it', async () => {
    const { result, grewBytes } = await rssGrowthDuring(() =>
      fetch(`${base}/echo/json`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: bomb }),
    );
    expect(result.status).toBe(415);
    expect(grewBytes).toBeLessThan(BOMB_RSS_BOUND);
  });

  it('refuses a body over REQUEST_LIMITS.http with 413 (logging nothing), and still reads the largest echo', async () => {
    const over = JSON.stringify({ content: 'x'.repeat(REQUEST_LIMITS.http.bytes) });
    const logged = jest.spyOn(process.stderr, 'write');
    const stdout = jest.spyOn(process.stdout, 'write');
    try {
      expect((await fetch(`${base}/echo/json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: over })).status).toBe(413);
      expect([...logged.mock.calls, ...stdout.mock.calls].map(([text]) => String(text)).filter((text) => /entity|too large/i.test(text))).toEqual([]);
    } finally {
      logged.mockRestore();
      stdout.mockRestore();
    }
    const proto = Buffer.alloc(REQUEST_LIMITS.http.bytes + 1);
    expect((await fetch(`${base}/echo/protobuf`, { method: 'POST', headers: { 'content-type': PROTOBUF_MEDIA_TYPE }, body: proto })).status).toBe(413);
    const largest = buildEchoContent(ECHO_MAX_CONTENT);
    const json = await fetch(`${base}/echo/json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: largest }) });
    expect(json.status).toBe(200);
    expect(((await json.json()) as { content: string }).content).toHaveLength(ECHO_MAX_CONTENT);
    const codec = echoCodec();
    const pb = await fetch(`${base}/echo/protobuf`, { method: 'POST', headers: { 'content-type': PROTOBUF_MEDIA_TYPE }, body: codec.requestSerialize({ content: largest }) });
    expect(pb.status).toBe(200);
  });

  it('drops a connection that stops half-way through its request head', async () => {
    expect(await stallOutcome(portOf(app), HALF_REQUEST_HEAD, HANDSHAKE_MS)).toBe(DROPPED_AT_LIMIT);
  });

  it('keeps an idle keep-alive connection past the head timeout (its keep-alive decides)', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const localPort = () =>
      new Promise<number>((resolve, reject) =>
        http
          .get(`${base}/health`, { agent }, (res) => {
            const port = res.socket.localPort ?? -1;
            res.resume();
            res.on('end', () => resolve(port));
          })
          .on('error', reject),
      );
    try {
      const first = await localPort();
      await new Promise((resolve) => setTimeout(resolve, 3 * HANDSHAKE_MS));
      expect(await localPort()).toBe(first);
    } finally {
      agent.destroy();
    }
  });
});

describe('server-a HTTP/2 listener (Nest routes and Connect)', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    app = await createServerAH2(settings);
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${portOf(app)}`;
  });
  afterAll(() => app.close(), 15_000);

  const connectProto = { ':path': GET_SAMPLES, 'content-type': 'application/proto', 'connect-protocol-version': '1' };
  const connectJson = { ':path': GET_SAMPLES, 'content-type': 'application/json', 'connect-protocol-version': '1' };
  const grpc = { ':path': GET_SAMPLES, 'content-type': 'application/grpc', te: 'trailers' };

  it.each([
    ['Connect proto', connectProto],
    ['Connect JSON', connectJson],
  ])('%s: a gzip bomb is resource_exhausted, not inflated', async (_name, headers) => {
    const { result, grewBytes } = await rssGrowthDuring(() => http2Request(base, { ...headers, 'content-encoding': 'gzip' }, bomb));
    expect(result.status).toBe(429);
    expect(JSON.parse(result.body.toString())).toMatchObject({ code: 'resource_exhausted' });
    expect(grewBytes).toBeLessThan(BOMB_RSS_BOUND);
  });

  it('gRPC protocol: a gzip bomb is RESOURCE_EXHAUSTED (grpc-status 8), not inflated', async () => {
    const { result, grewBytes } = await rssGrowthDuring(() => http2Request(base, { ...grpc, 'grpc-encoding': 'gzip' }, grpcFrame(bomb, true)));
    expect(result.trailers['grpc-status']).toBe('8');
    expect(grewBytes).toBeLessThan(BOMB_RSS_BOUND);
  });

  it('an uncompressed body over REQUEST_LIMITS.connect is resource_exhausted on every protocol', async () => {
    const over = Buffer.alloc(REQUEST_LIMITS.connect.bytes + 1, 0x20);
    expect((await http2Request(base, connectProto, over)).status).toBe(429);
    expect((await http2Request(base, connectJson, over)).status).toBe(429);
    expect((await http2Request(base, grpc, grpcFrame(over))).trailers['grpc-status']).toBe('8');
  });

  it('a gzip body that stays under the limit is read (gzip is accepted)', async () => {
    const answer = await http2Request(base, { ...connectJson, 'content-encoding': 'gzip' }, gzipSync(JSON.stringify({ count: 2 })));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString()).samples).toHaveLength(2);
  });

  it('undecodable protobuf is invalid_argument: HTTP 400 (Connect), grpc-status 3 (gRPC), and the server keeps serving', async () => {
    // A field tag with a truncated varint.
    const malformed = Buffer.from([0x08, 0xff]);
    const connect = await http2Request(base, connectProto, malformed);
    expect(connect.status).toBe(400);
    expect(JSON.parse(connect.body.toString())).toMatchObject({ code: 'invalid_argument' });
    const overGrpc = await http2Request(base, grpc, grpcFrame(malformed));
    expect(overGrpc.trailers['grpc-status']).toBe('3');
    const fine = await http2Request(base, connectJson, Buffer.from('{"count":1}'));
    expect(JSON.parse(fine.body.toString()).samples).toHaveLength(1);
  });

  it('refuses a gzip body on the Nest routes with 415', async () => {
    const answer = await http2Request(base, { ':path': '/echo/json', 'content-type': 'application/json', 'content-encoding': 'gzip' }, bomb);
    expect(answer.status).toBe(415);
  });

  it('drops a connection that stops half-way through the HTTP/2 preface', async () => {
    expect(await stallOutcome(portOf(app), HALF_HTTP2_PREFACE, HANDSHAKE_MS)).toBe(DROPPED_AT_LIMIT);
  });

  it('keeps a session that finished its handshake past the handshake limit', async () => {
    expect(await http2SessionOpenAfter(base, 3 * HANDSHAKE_MS)).toBe(true);
  });
});
