import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DEFAULT_SETTINGS } from '@bench/config';
import { buildRows } from '@bench/samples';
import { AppModule } from '../src/app.module';
import { createServerA } from '../src/http-platform';

describe('server-a (JSON over HTTP)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule.register({ ...DEFAULT_SETTINGS, maxRows: 50 })],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });
  afterAll(() => app.close());

  it('GET /server-a/:count returns the blog rows as {"samples": [...]}', async () => {
    const response = await request(app.getHttpServer()).get('/server-a/3').expect(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.body).toEqual({ samples: buildRows(3) });
  });

  it('serves up to the configured cap', async () => {
    const response = await request(app.getHttpServer()).get('/server-a/50').expect(200);
    expect(response.body.samples).toHaveLength(50);
  });

  it.each([
    ['abc', 'integer'],
    ['-1', 'integer'],
    ['1.5', 'integer'],
    ['1e3', 'integer'],
    ['0', 'min'],
    ['51', 'max'],
  ])('answers %s with 400 naming the field and rule (%s)', async (count, rule) => {
    const response = await request(app.getHttpServer()).get(`/server-a/${count}`).expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, field: 'count', rule });
    expect(response.body.message).toContain('count');
  });

  it('GET /path/bulk sends the bytes asked for (the client times it), and refuses a bad size with 400', async () => {
    const response = await request(app.getHttpServer()).get('/path/bulk?bytes=100000').buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    }).expect(200);
    expect((response.body as Buffer).length).toBe(100_000);
    for (const bytes of ['0', 'x', String(256 * 1024 * 1024 + 1)]) {
      const bad = await request(app.getHttpServer()).get(`/path/bulk?bytes=${bytes}`).expect(400);
      expect(bad.body).toMatchObject({ statusCode: 400, field: 'bytes' });
    }
  });

  it('stays healthy after bad input', async () => {
    await request(app.getHttpServer()).get('/server-a/nope').expect(400);
    await request(app.getHttpServer()).get('/health').expect(200, { status: 'SERVING', service: 'server-a' });
  });

  it('answers unknown routes with 404', async () => {
    await request(app.getHttpServer()).get('/server-b/1').expect(404);
  });
});

describe('server-a metrics', () => {
  it('GET /metrics reports its own CPU time and memory', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.register(DEFAULT_SETTINGS)] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    try {
      const response = await request(app.getHttpServer()).get('/metrics?resetPeak=true').expect(200);
      expect(response.body).toEqual({
        cpuUserMs: expect.any(Number),
        cpuSystemMs: expect.any(Number),
        rssBytes: expect.any(Number),
        peakRssBytes: expect.any(Number),
        maxRssBytes: expect.any(Number),
        buildMs: expect.any(Number),
        encodeMs: expect.any(Number),
        requests: expect.any(Number),
        heapUsedBytes: expect.any(Number),
        heapTotalBytes: expect.any(Number),
        externalBytes: expect.any(Number),
        arrayBuffersBytes: expect.any(Number),
        gcReported: true,
        gcMs: expect.any(Number),
        buildGcMs: expect.any(Number),
        encodeGcMs: expect.any(Number),
      });
      expect(response.body.peakRssBytes).toBeGreaterThan(0);
      await request(app.getHttpServer()).get('/server-a/2000').expect(200);
      const after = (await request(app.getHttpServer()).get('/metrics').expect(200)).body;
      // Its own count of sample requests (a replica's share behind a Service); /metrics itself is not one.
      expect(after.requests).toBe(response.body.requests + 1);
      expect(after.buildMs).toBeGreaterThan(response.body.buildMs);
      expect(after.encodeMs).toBeGreaterThan(response.body.encodeMs);
    } finally {
      await app.close();
    }
  });
});

describe('server-a, tuned (Fastify adapter)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await createServerA({ ...DEFAULT_SETTINGS, variant: 'tuned', maxRows: 50 });
    await app.init();
    await (app.getHttpAdapter().getInstance() as { ready(): Promise<void> }).ready();
  });
  afterAll(() => app.close());

  it('serves the same rows, refuses the same bad input and times its serializer', async () => {
    const before = (await request(app.getHttpServer()).get('/metrics').expect(200)).body;
    const response = await request(app.getHttpServer()).get('/server-a/3').expect(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.headers.etag).toBeUndefined();
    expect(response.body).toEqual({ samples: buildRows(3) });
    const bad = await request(app.getHttpServer()).get('/server-a/1.5').expect(400);
    expect(bad.body).toMatchObject({ statusCode: 400, field: 'count', rule: 'integer' });
    const after = (await request(app.getHttpServer()).get('/metrics').expect(200)).body;
    expect(after.encodeMs).toBeGreaterThan(before.encodeMs);
    expect(app.getHttpServer().keepAliveTimeout).toBe(65_000);
  });
});
