import * as fs from 'node:fs';
import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DEFAULT_SETTINGS } from '@bench/config';
import { parseCallSamples } from '@bench/harness';
import { buildRows } from '@bench/samples';
import type { FakeServer } from '@bench/testing';
import { AppModule } from '../src/app.module';
import { startClientAgainstFakes, type ClientAgainstFakes } from './client-against-fakes';

// The client app against protocol-level stand-ins for server-a and server-b on free loopback ports.
describe('client', () => {
  let serverA: FakeServer;
  let serverB: FakeServer;
  let client: INestApplication;
  let fakes: ClientAgainstFakes;

  beforeAll(async () => {
    fakes = await startClientAgainstFakes({ maxRows: 20_000, maxParallel: 200, callTimeoutMs: 1_000 });
    ({ serverA, serverB, client } = fakes);
  });
  afterAll(() => fakes.close());

  const http = () => request(client.getHttpServer());

  it.each([
    ['/client/call-a/25', 'json', 25, 1],
    ['/client/call-b/25', 'grpc', 25, 1],
    ['/client/call-a-parallel/7', 'json', 1, 7],
    ['/client/call-b-parallel/7', 'grpc', 1, 7],
  ])('%s answers with the timing as JSON', async (path, transport, rows, requests) => {
    const response = await http().get(path).expect(200);
    expect(response.body).toEqual({ transport, rows, requests, elapsedMs: expect.any(Number), rowsReceived: rows * requests });
    expect(response.body.elapsedMs).toBeGreaterThan(0);
  });

  it.each(['/client/call-a/abc', '/client/call-b/1.5', '/client/call-a-parallel/-1', '/client/call-b/20001', '/client/call-b-parallel/201'])(
    '%s is refused with 400',
    async (path) => {
      const response = await http().get(path).expect(400);
      expect(response.body).toMatchObject({ statusCode: 400, field: 'count' });
    },
  );

  it.each(['json', 'grpc'])('POST /bench/run returns every raw sample for %s', async (transport) => {
    const response = await http()
      .post('/bench/run')
      .send({ transport, rows: 100, requests: 3, warmup: 2, runs: 4 })
      .expect(200);
    const run = response.body;
    // The reply is what the bench reads (CallSamples in libs/harness, checked as its HTTP driver checks it).
    expect(parseCallSamples(run)).toEqual({ ok: true, value: run });
    expect(run).toMatchObject({ transport, rows: 100, requests: 3, rowsPerCall: 300 });
    expect(run.samplesMs).toHaveLength(4);
    expect(run.warmupMs).toHaveLength(2);
    expect(run.coldMs).toBeGreaterThan(0);
    expect(run.bytesPerResponse).toBeGreaterThan(100 * 100);
    expect(run.client.peakRssBytes).toBeGreaterThan(0);
    expect(run.client.cpuUserMs + run.client.cpuSystemMs).toBeGreaterThan(0);
    expect(run.server).toEqual({ cpuUserMs: expect.any(Number), cpuSystemMs: expect.any(Number), peakRssBytes: expect.any(Number), gcMs: expect.any(Number) });
    expect(run.serverMetricsError).toBeNull();
  });

  it('prepares a case without timed runs (cold + warm-up only) for interleaved repetitions', async () => {
    const run = (await http().post('/bench/run').send({ transport: 'grpc', rows: 10, requests: 2, warmup: 1, runs: 0 }).expect(200)).body;
    expect(run).toMatchObject({ samplesMs: [], client: null, server: null, bytesPerResponse: null });
    expect(run.warmupMs).toHaveLength(1);
    expect(run.coldMs).toBeGreaterThan(0);
  });

  it('reports JSON bodies larger than protobuf messages for the same rows', async () => {
    const run = (transport: string) =>
      http().post('/bench/run').send({ transport, rows: 1000, requests: 1, warmup: 0, runs: 1, cold: false }).expect(200);
    const json = (await run('json')).body;
    const grpc = (await run('grpc')).body;
    expect(json.coldMs).toBeNull();
    expect(json.bytesPerResponse).toBeGreaterThan(grpc.bytesPerResponse);
  });

  it.each([
    [{ transport: 'xml', rows: 1, requests: 1, runs: 1 }, 'transport', 'enum'],
    [{ transport: 'json', rows: 'ten', requests: 1, runs: 1 }, 'rows', 'integer'],
    [{ transport: 'json', rows: 1, requests: 0, runs: 1 }, 'requests', 'min'],
    [{ transport: 'json', rows: 1, requests: 1 }, 'runs', 'required'],
    [{ transport: 'json', rows: 1, requests: 1, runs: 1, cold: 'yes' }, 'cold', 'type'],
  ])('POST /bench/run refuses %p', async (body, field, rule) => {
    const response = await http().post('/bench/run').send(body).expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, field, rule });
  });

  it('GET /bench/info describes the measuring process', async () => {
    const response = await http().get('/bench/info').expect(200);
    expect(response.body).toMatchObject({ node: process.version, cpuCount: expect.any(Number), pid: process.pid });
    // The project's pinned Node (package.json devDependencies.node, brought by npm ci), with what moves between releases.
    const pinned = (JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.node;
    expect(response.body).toMatchObject({ node: `v${pinned}`, v8: process.versions.v8, openssl: process.versions.openssl, llhttp: process.versions.llhttp });
    const dependencies = (JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
    expect(response.body.packages['@nestjs/core']).toBe(dependencies['@nestjs/core']);
    expect(response.body.packages.undici).toBe(dependencies.undici);
  });

  it('GET /health/ready reports both upstreams', async () => {
    const response = await http().get('/health/ready').expect(200);
    expect(response.body).toEqual({ status: 'SERVING', upstreams: { 'server-a': 'SERVING', 'server-b': 'SERVING' } });
  });

  it.each(['json', 'grpc'] as const)('fails a case loudly (502) when %s sends the wrong rows', async (transport) => {
    const server = transport === 'json' ? serverA : serverB;
    server.rows = (count) => buildRows(count).map((row, i) => (i === count - 1 ? { ...row, columnJ: 'tampered' } : row));
    try {
      const response = await http().post('/bench/run').send({ transport, rows: 5, requests: 1, warmup: 0, runs: 1 }).expect(502);
      expect(response.body).toMatchObject({ statusCode: 502, stage: 'cold' });
      expect(response.body.message).toContain('wrong reply: row 4 differs');
      await http().get(`/client/call-${transport === 'json' ? 'a' : 'b'}/3`).expect(502);
    } finally {
      server.rows = buildRows;
    }
  });

  it.each(['json', 'grpc'] as const)('gives up on a %s server that does not answer within CALL_TIMEOUT_MS (502)', async (transport) => {
    const server = transport === 'json' ? serverA : serverB;
    server.delayMs = 3_000;
    try {
      const started = Date.now();
      const response = await http().post('/bench/run').send({ transport, rows: 1, requests: 1, warmup: 0, runs: 1, cold: false }).expect(502);
      expect(Date.now() - started).toBeLessThan(2_900);
      expect(response.body).toMatchObject({ statusCode: 502, stage: 'timed' });
      // The call's deadline wall and the library's own timeout (axios, grpc-js) race at the same instant.
      expect(response.body.message).toMatch(/DEADLINE_EXCEEDED|timeout of 1000ms exceeded/);
    } finally {
      server.delayMs = 0;
    }
  });

  it.each(['json', 'grpc'] as const)("holds %s calls to the deadline the bench gives the case, and refuses a bad one with 400", async (transport) => {
    const server = transport === 'json' ? serverA : serverB;
    server.delayMs = 3_000;
    try {
      const started = Date.now();
      const response = await http().post('/bench/run').send({ transport, rows: 1, requests: 1, warmup: 0, runs: 1, cold: false, deadlineMs: 300 }).expect(502);
      expect(Date.now() - started).toBeLessThan(900);
      expect(response.body.message).toMatch(/DEADLINE_EXCEEDED.*300 ms|timeout of 300ms exceeded|Deadline exceeded/);
    } finally {
      server.delayMs = 0;
    }
    const bad = await http().post('/bench/run').send({ transport, rows: 1, requests: 1, runs: 1, deadlineMs: -5 }).expect(400);
    expect(bad.body).toMatchObject({ field: 'deadlineMs', rule: 'min' });
  });

  it('measures its path to both servers (GET /bench/path), and refuses a bad query with 400', async () => {
    const { body } = await http().get('/bench/path?samples=3&bulkBytes=100000').expect(200);
    expect(body.serverA).toMatchObject({ tcpConnectMs: { n: 3, medianMs: expect.any(Number) }, bulk: { bytes: 100_000, n: 3, medianMbit: expect.any(Number) } });
    expect(body.serverB).toMatchObject({
      tcpConnectMs: { n: 3 },
      http2PingMs: { n: 3, medianMs: expect.any(Number) },
      bulk: { bytes: 100_000, n: 3, medianMbit: expect.any(Number), http2WindowBytes: 16 * 1024 * 1024 },
    });
    expect(body.serverA.tcpConnectMs.medianMs).toBeLessThan(100);
    const bad = await http().get('/bench/path?samples=0').expect(400);
    expect(bad.body).toMatchObject({ field: 'samples', rule: 'min' });
  });

  it('reports a dead server-b as 502 on the bench route and 503 on readiness', async () => {
    await serverB.close();
    const run = await http().post('/bench/run').send({ transport: 'grpc', rows: 1, requests: 1, warmup: 0, runs: 1 }).expect(502);
    expect(run.body).toMatchObject({ statusCode: 502, stage: 'cold' });
    const ready = await http().get('/health/ready').expect(503);
    expect(ready.body.upstreams['server-a']).toBe('SERVING');
    expect(ready.body.upstreams['server-b']).toMatch(/^UNREACHABLE/);
    await http().get('/client/call-a/1').expect(200);
  });
});

describe('client: malformed requests', () => {
  let client: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.register({ ...DEFAULT_SETTINGS, serverAUrl: 'http://127.0.0.1:9', serverBUrl: '127.0.0.1:9' })] }).compile();
    client = moduleRef.createNestApplication({ logger: false });
    await client.init();
  });
  afterAll(() => client.close());

  it('answers malformed JSON with 400', async () => {
    const response = await request(client.getHttpServer()).post('/bench/run').set('content-type', 'application/json').send('{"transport": ').expect(400);
    expect(response.body).toMatchObject({ statusCode: 400 });
  });

  it('answers a body over the size limit with 413', async () => {
    const response = await request(client.getHttpServer())
      .post('/bench/run')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ transport: 'json', padding: 'x'.repeat(200_000) }))
      .expect(413);
    expect(response.body).toMatchObject({ statusCode: 413 });
  });

  it('does not read a text/plain body as a case (400 naming the body and the content type)', async () => {
    const response = await request(client.getHttpServer())
      .post('/bench/run')
      .set('content-type', 'text/plain')
      .send('{"transport":"json","rows":1,"requests":1,"runs":1}')
      .expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, field: 'body', rule: 'type', message: expect.stringContaining('application/json') });
  });

  it('answers unknown routes with 404 and wrong methods with 404 JSON, and stays up', async () => {
    await request(client.getHttpServer()).get('/nope').expect(404);
    await request(client.getHttpServer()).delete('/bench/run').expect(404);
    await request(client.getHttpServer()).get('/health').expect(200);
  });
});
