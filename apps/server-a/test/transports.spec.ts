import * as http from 'node:http';
import * as http2 from 'node:http2';
import type { INestApplication } from '@nestjs/common';
import { DEFAULT_SETTINGS, type NestVariant, type Settings } from '@bench/config';
import { getSamplesCodec, PROTOBUF_MEDIA_TYPE } from '@bench/proto';
import { buildRows, NDJSON_MEDIA_TYPE } from '@bench/samples';
import { freePort } from '@bench/testing';
import { createServerA, createServerAH2 } from '../src/http-platform';

// The two transports that complete the protocol × codec matrix, served by the real server-a:
// json-h2 (its second listener, HTTP/2 cleartext) and proto-h1 (GET /server-a/protobuf/:count).
const BIG = 50_000;

async function started(create: (s: Settings) => Promise<INestApplication>, variant: NestVariant): Promise<{ app: INestApplication; port: number }> {
  const port = await freePort();
  const app = await create({ ...DEFAULT_SETTINGS, maxRows: BIG, variant });
  await app.listen(port, '127.0.0.1');
  return { app, port };
}

/** One GET over a session; `abortAfterBytes` cancels the stream once that many body bytes have arrived. */
function h2Get(
  session: http2.ClientHttp2Session,
  path: string,
  abortAfterBytes?: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; body: Buffer; aborted: boolean }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': 'GET', ':path': path, ...headers });
    const chunks: Buffer[] = [];
    let status = 0;
    let type = '';
    let received = 0;
    stream.on('response', (reply) => {
      status = Number(reply[':status']);
      type = String(reply['content-type']);
    });
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (abortAfterBytes !== undefined && received >= abortAfterBytes) {
        stream.close(http2.constants.NGHTTP2_CANCEL);
        resolve({ status, type, body: Buffer.concat(chunks), aborted: true });
      }
    });
    stream.on('end', () => resolve({ status, type, body: Buffer.concat(chunks), aborted: false }));
    stream.on('error', reject);
    stream.end();
  });
}

function h1Get(port: number, path: string, abortAfterBytes?: number, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (abortAfterBytes !== undefined && received >= abortAfterBytes) {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: Buffer.concat(chunks) });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: Buffer.concat(chunks) }));
      res.on('error', () => undefined);
    });
    req.on('error', (error) => (abortAfterBytes === undefined ? reject(error) : undefined));
  });
}

describe.each<NestVariant>(['blog', 'tuned'])('server-a json-h2 listener (%s)', (variant) => {
  let app: INestApplication;
  let session: http2.ClientHttp2Session;

  beforeAll(async () => {
    const server = await started(createServerAH2, variant);
    app = server.app;
    session = http2.connect(`http://127.0.0.1:${server.port}`);
  });
  afterAll(async () => {
    session.close();
    await app.close();
  });

  it('serves the blog route over HTTP/2 cleartext as the same JSON', async () => {
    const reply = await h2Get(session, '/server-a/3');
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body.toString('utf8'))).toEqual({ samples: buildRows(3) });
  });

  it.each([['abc', 'integer'], ['0', 'min'], [String(BIG + 1), 'max']])('answers %s with 400 naming the rule (%s)', async (count, rule) => {
    const reply = await h2Get(session, `/server-a/${count}`);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body.toString('utf8'))).toMatchObject({ statusCode: 400, field: 'count', rule });
  });

  it('stays healthy when a client cancels a stream in the middle of a large reply', async () => {
    const aborted = await h2Get(session, `/server-a/${BIG}`, 64 * 1024);
    expect(aborted.aborted).toBe(true);
    // A second session after the cancel, and the same session: both are answered in full.
    const again = await h2Get(session, `/server-a/${BIG}`);
    expect(JSON.parse(again.body.toString('utf8')).samples).toHaveLength(BIG);
    expect((await h2Get(session, '/health')).status).toBe(200);
  });
});

describe.each<NestVariant>(['blog', 'tuned'])('server-a proto-h1 route (%s)', (variant) => {
  let app: INestApplication;
  let port: number;

  beforeAll(async () => ({ app, port } = await started(createServerA, variant)));
  afterAll(() => app.close());

  it('GET /server-a/protobuf/:count sends the rows as one sample.Samples message (the gRPC codec)', async () => {
    const reply = await h1Get(port, '/server-a/protobuf/3');
    expect(reply.status).toBe(200);
    expect(reply.type).toBe(PROTOBUF_MEDIA_TYPE);
    expect(getSamplesCodec().responseDeserialize(reply.body)).toEqual({ samples: buildRows(3) });
  });

  it.each([['x', 'integer'], ['-1', 'integer'], ['0', 'min'], [String(BIG + 1), 'max']])('answers %s with 400 naming the rule (%s)', async (count, rule) => {
    const reply = await h1Get(port, `/server-a/protobuf/${count}`);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body.toString('utf8'))).toMatchObject({ statusCode: 400, field: 'count', rule });
  });

  it('stays healthy when a client drops the connection in the middle of a large reply', async () => {
    await h1Get(port, `/server-a/protobuf/${BIG}`, 64 * 1024);
    const again = await h1Get(port, `/server-a/protobuf/${BIG}`);
    expect(getSamplesCodec().responseDeserialize(again.body).samples).toHaveLength(BIG);
    expect((await h1Get(port, '/health')).status).toBe(200);
  });
});

/** A streamed reply's rows (one JSON array of rows per line). */
function ndjsonRows(body: Buffer): unknown[] {
  const lines = body.toString('utf8').split('\n');
  expect(lines.pop()).toBe('');
  return lines.flatMap((line) => JSON.parse(line));
}

const NDJSON = { accept: NDJSON_MEDIA_TYPE };

// Tuning stream-json-replies: large replies as NDJSON to a caller that asks, on both listeners.
describe.each([
  ['HTTP/1.1', createServerA],
  ['HTTP/2', createServerAH2],
] as const)('server-a streamed JSON replies over %s', (_protocol, create) => {
  const apps: INestApplication[] = [];
  const sessions: http2.ClientHttp2Session[] = [];
  afterAll(async () => {
    sessions.forEach((session) => session.close());
    await Promise.all(apps.map((app) => app.close()));
  });

  /** A GET on a server of `variant`, over this listener's protocol. */
  async function server(variant: NestVariant) {
    const { app, port } = await started(create, variant);
    apps.push(app);
    if (create === createServerA) return (path: string, headers = {}, abortAfterBytes?: number) => h1Get(port, path, abortAfterBytes, headers);
    const session = http2.connect(`http://127.0.0.1:${port}`);
    sessions.push(session);
    return (path: string, headers = {}, abortAfterBytes?: number) => h2Get(session, path, abortAfterBytes, headers);
  }

  let tuned: Awaited<ReturnType<typeof server>>;
  beforeAll(async () => (tuned = await server('tuned')));

  it('streams the rows one per line to a caller that asks for application/x-ndjson', async () => {
    const reply = await tuned('/server-a/2500', NDJSON);
    expect(reply).toMatchObject({ status: 200, type: NDJSON_MEDIA_TYPE });
    expect(ndjsonRows(reply.body)).toEqual(buildRows(2_500));
  });

  it('still answers one JSON body to a caller that does not ask, and the blog variant to everyone', async () => {
    const plain = await tuned('/server-a/3');
    expect(plain.type).toMatch(/^application\/json/);
    expect(JSON.parse(plain.body.toString('utf8'))).toEqual({ samples: buildRows(3) });
    const blog = await (await server('blog'))('/server-a/3', NDJSON);
    expect(blog.type).toMatch(/^application\/json/);
    expect(JSON.parse(blog.body.toString('utf8'))).toEqual({ samples: buildRows(3) });
  });

  it.each([['-1', 'integer'], ['abc', 'integer'], [String(BIG + 1), 'max']])('answers a stream request for %s with 400 (%s) before any byte of stream', async (count, rule) => {
    const reply = await tuned(`/server-a/${count}`, NDJSON);
    expect(reply).toMatchObject({ status: 400, type: expect.stringMatching(/^application\/json/) });
    expect(JSON.parse(reply.body.toString('utf8'))).toMatchObject({ statusCode: 400, field: 'count', rule });
  });

  it('stays healthy when a client goes away in the middle of a stream', async () => {
    await tuned(`/server-a/${BIG}`, NDJSON, 64 * 1024);
    const again = await tuned(`/server-a/${BIG}`, NDJSON);
    expect(ndjsonRows(again.body)).toHaveLength(BIG);
    expect((await tuned('/health')).status).toBe(200);
  });
});

describe('server-a json-h2 listener shutdown', () => {
  it('closes at once while a client keeps an idle HTTP/2 session open (GOAWAY to every session)', async () => {
    const { app, port } = await started(createServerAH2, 'blog');
    const session = http2.connect(`http://127.0.0.1:${port}`);
    try {
      expect((await h2Get(session, '/server-a/1')).status).toBe(200);
      const begun = Date.now();
      await app.close();
      expect(Date.now() - begun).toBeLessThan(2_000);
    } finally {
      session.destroy();
    }
  });
});
