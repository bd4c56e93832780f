import type { AddressInfo } from 'node:net';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DEFAULT_SETTINGS, REQUEST_LIMITS } from '@bench/config';
import { gzipOfZeros, HALF_REQUEST_HEAD, rssGrowthDuring, stallOutcome, DROPPED_AT_LIMIT, BOMB_INFLATED_BYTES } from '@bench/testing';
import { AppModule } from '../src/app.module';
import { limitClientRequests } from '../src/http-limits';

// Issue 31's hostile callers against the client's own listener (POST /bench/run), set up as main.ts sets it up.

const HANDSHAKE_MS = 500;

describe('client listener: request limits and head timeout', () => {
  let app: NestExpressApplication;
  let port: number;
  let url: string;

  beforeAll(async () => {
    const settings = { ...DEFAULT_SETTINGS, serverAUrl: 'http://127.0.0.1:9', serverBUrl: '127.0.0.1:9', handshakeTimeoutMs: HANDSHAKE_MS };
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.register(settings)] }).compile();
    app = moduleRef.createNestApplication<NestExpressApplication>({ logger: false, bodyParser: false });
    limitClientRequests(app, settings);
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
    url = `http://127.0.0.1:${port}/bench/run`;
  });
  afterAll(() => app.close());

  it('refuses a gzip body with 415 without inflating it', async () => {
    const bomb = await gzipOfZeros();
    const { result, grewBytes } = await rssGrowthDuring(() =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: bomb }),
    );
    expect(result.status).toBe(415);
    expect(grewBytes).toBeLessThan(BOMB_INFLATED_BYTES / 2);
  });

  it('refuses a body over REQUEST_LIMITS.control with 413, and reads one within it (400: a bad case, not a bad body)', async () => {
    const over = JSON.stringify({ transport: 'x'.repeat(REQUEST_LIMITS.control.bytes) });
    expect((await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: over })).status).toBe(413);
    const within = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ transport: 'nope' }) });
    expect(within.status).toBe(400);
    expect(await within.json()).toMatchObject({ field: 'transport' });
  });

  it('drops a connection that stops half-way through its request head', async () => {
    expect(await stallOutcome(port, HALF_REQUEST_HEAD, HANDSHAKE_MS)).toBe(DROPPED_AT_LIMIT);
  });
});
