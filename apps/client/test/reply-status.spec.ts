import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DEFAULT_SETTINGS, type NestVariant } from '@bench/config';
import { startFakeGrpcServer, startFakeJsonServer, type FakeServer } from '@bench/testing';
import { AppModule } from '../src/app.module';

// What Envoy answers when its upstream reset before the reply's head (the mesh's 503), word for word.
const ENVOY_503 = 'upstream connect error or disconnect/reset before headers. reset reason: connection termination';

describe.each<NestVariant>(['blog'])('client: an error reply from whatever answers for server-a (%s)', (variant) => {
  let proxy: http.Server;
  let serverAH2: FakeServer;
  let serverB: FakeServer;
  let client: INestApplication;

  beforeAll(async () => {
    proxy = http.createServer((_req, res) => res.writeHead(503, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(ENVOY_503) }).end(ENVOY_503));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    [serverAH2, serverB] = await Promise.all([startFakeJsonServer('h2c'), startFakeGrpcServer()]);
    const settings = { ...DEFAULT_SETTINGS, serverAUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, serverAH2Url: serverAH2.url, serverBUrl: serverB.url, callTimeoutMs: 1_000, variant };
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.register(settings)] }).compile();
    client = moduleRef.createNestApplication({ logger: false });
    await client.init();
  });
  afterAll(async () => {
    await client.close();
    await Promise.all([new Promise((resolve) => proxy.close(resolve)), serverAH2.close(), serverB.close()]);
  });

  it.each(['json', 'proto-h1'])('%s fails saying who answered what, not a parse error', async (transport) => {
    const reply = await request(client.getHttpServer()).post('/bench/run').send({ transport, rows: 1, requests: 3, warmup: 0, runs: 1 });
    expect(reply.status).toBe(502);
    expect(JSON.stringify(reply.body)).toContain(`HTTP 503 from server-a: ${ENVOY_503}`);
    expect(JSON.stringify(reply.body)).not.toMatch(/Unexpected token|not valid JSON/);
  });
});
