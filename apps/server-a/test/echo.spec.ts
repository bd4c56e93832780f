import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DEFAULT_SETTINGS, type NestVariant } from '@bench/config';
import { echoCodec, lookupCodec, PROTOBUF_MEDIA_TYPE } from '@bench/proto';
import { buildEchoContent, ECHO_MAX_CONTENT } from '@bench/samples';
import { createServerA } from '../src/http-platform';

/** Collects a binary reply body whatever the platform (supertest only buffers text and JSON itself). */
function binary(res: request.Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

describe.each<[string, NestVariant]>([
  ['Express (blog)', 'blog'],
  ['Fastify (tuned)', 'tuned'],
])('server-a echo and lookup on %s', (_platform, variant) => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await createServerA({ ...DEFAULT_SETTINGS, variant });
    await app.init();
    if (variant === 'tuned') await (app.getHttpAdapter().getInstance() as { ready(): Promise<void> }).ready();
  });
  afterAll(() => app.close());

  it.each([0, 100, 100_000])('POST /echo/json returns %d bytes of content unchanged', async (bytes) => {
    const content = buildEchoContent(bytes);
    const response = await request(app.getHttpServer()).post('/echo/json').send({ content }).expect(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.body).toEqual({ content });
  });

  it.each([0, 100, 100_000])('POST /echo/protobuf returns %d bytes of content as a ResponseMessage', async (bytes) => {
    const content = buildEchoContent(bytes);
    const codec = echoCodec();
    const response = await request(app.getHttpServer())
      .post('/echo/protobuf')
      .set('Content-Type', PROTOBUF_MEDIA_TYPE)
      .send(codec.requestSerialize({ content }))
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(response.headers['content-type']).toBe(PROTOBUF_MEDIA_TYPE);
    expect(codec.responseDeserialize(response.body as Buffer)).toEqual({ content });
  });

  it('refuses a JSON echo without content, with a number, or too long, with 400 naming the rule', async () => {
    const server = app.getHttpServer();
    expect((await request(server).post('/echo/json').send({}).expect(400)).body).toMatchObject({ field: 'content', rule: 'required' });
    expect((await request(server).post('/echo/json').send({ content: 7 }).expect(400)).body).toMatchObject({ field: 'content', rule: 'type' });
    const long = { content: 'x'.repeat(ECHO_MAX_CONTENT + 1) };
    expect((await request(server).post('/echo/json').send(long).expect(400)).body).toMatchObject({ field: 'content', rule: 'max' });
  });

  it('refuses undecodable protobuf bytes with 400 and a wrong media type with 415', async () => {
    const server = app.getHttpServer();
    const bad = await request(server).post('/echo/protobuf').set('Content-Type', PROTOBUF_MEDIA_TYPE).send(Buffer.from([0x0f])).expect(400);
    expect(bad.body).toMatchObject({ field: 'body', rule: 'type' });
    const wrong = await request(server).post('/echo/protobuf').send({ content: 'a' }).expect(415);
    expect(wrong.body.message).toContain(PROTOBUF_MEDIA_TYPE);
    await request(server).post('/echo/json').set('Content-Type', 'text/plain').send('hello').expect(415);
  });

  it('GET /lookup/json/:id and /lookup/protobuf/:id return the id; bad ids are 400', async () => {
    const server = app.getHttpServer();
    expect((await request(server).get('/lookup/json/42').expect(200)).body).toEqual({ id: 42 });
    const pb = await request(server).get('/lookup/protobuf/42').buffer(true).parse(binary).expect(200);
    expect(lookupCodec().responseDeserialize(pb.body as Buffer)).toEqual({ id: 42 });
    expect((await request(server).get('/lookup/json/0').expect(400)).body).toMatchObject({ field: 'id', rule: 'min' });
    expect((await request(server).get('/lookup/protobuf/x').expect(400)).body).toMatchObject({ field: 'id', rule: 'integer' });
  });
});
