import * as http from 'node:http';
import * as http2 from 'node:http2';
import type { INestApplication } from '@nestjs/common';
import { DEFAULT_SETTINGS, type NestVariant, type Settings } from '@bench/config';
import { getSamplesCodec, PROTOBUF_MEDIA_TYPE } from '@bench/proto';
import { buildRows } from '@bench/samples';
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
function h2Get(session: http2.ClientHttp2Session, path: string, abortAfterBytes?: number): Promise<{ status: number; body: Buffer; aborted: boolean }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': 'GET', ':path': path });
    const chunks: Buffer[] = [];
    let status = 0;
    let received = 0;
    stream.on('response', (headers) => (status = Number(headers[':status'])));
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (abortAfterBytes !== undefined && received >= abortAfterBytes) {
        stream.close(http2.constants.NGHTTP2_CANCEL);
        resolve({ status, body: Buffer.concat(chunks), aborted: true });
      }
    });
    stream.on('end', () => resolve({ status, body: Buffer.concat(chunks), aborted: false }));
    stream.on('error', reject);
    stream.end();
  });
}

function h1Get(port: number, path: string, abortAfterBytes?: number): Promise<{ status: number; type: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
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
