import type * as DnsModule from 'node:dns';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DEFAULT_SETTINGS, isTuned, type NestVariant } from '@bench/config';
import { startFakeGrpcServer, startFakeJsonServer, type FakeServer } from '@bench/testing';
import { AppModule } from '../src/app.module';

// Tuning cached-lookup in the client app: the servers addressed by name (localhost, answered by the
// machine's own resolver), every dns.lookup the process makes counted on the dns module, through which
// Node's net and the caching lookup both ask. Without the tuning every new connection asks; with it the
// process asks once per name (or not at all once its cache holds the answer).

const dns = process.getBuiltinModule('node:dns') as typeof DnsModule;
const realLookup = dns.lookup;
let asked: string[] = [];
beforeAll(() => {
  dns.lookup = ((hostname: string, ...rest: unknown[]) => {
    asked.push(hostname);
    return (realLookup as (...args: unknown[]) => void)(hostname, ...rest);
  }) as typeof dns.lookup;
});
afterAll(() => {
  dns.lookup = realLookup;
});

const byName = (url: string) => url.replace('127.0.0.1', 'localhost');

describe.each<NestVariant>(['blog', 'blog-with-cached-lookup', 'tuned', 'tuned-without-cached-lookup'])('client %s, servers by name', (variant) => {
  let servers: FakeServer[];
  let client: INestApplication;
  const cached = isTuned(variant, 'cached-lookup');

  beforeAll(async () => {
    servers = await Promise.all([startFakeJsonServer(), startFakeJsonServer('h2c'), startFakeGrpcServer()]);
    const [serverA, serverAH2, serverB] = servers;
    const settings = { ...DEFAULT_SETTINGS, serverAUrl: byName(serverA.url), serverAH2Url: byName(serverAH2.url), serverBUrl: byName(serverB.url), maxParallel: 50, variant };
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.register(settings)] }).compile();
    client = moduleRef.createNestApplication({ logger: false });
    await client.init();
  });
  afterAll(async () => {
    await client.close();
    await Promise.all(servers.map((s) => s.close()));
  });

  // grpc-js's channels (the blog's gRPC) resolve names on their own: only the lean unary client (tuned) takes the lookup.
  const transports = variant.startsWith('tuned') ? ['json', 'proto-h1', 'json-h2', 'grpc', 'connect-json'] : ['json', 'proto-h1', 'json-h2', 'connect-json'];

  it.each(transports)(`%s: two cases, each with a cold call on new connections, ${cached ? 'ask at most once' : 'ask for every new connection'}`, async (transport) => {
    asked = [];
    for (let i = 0; i < 2; i++) {
      const run = (await request(client.getHttpServer()).post('/bench/run').send({ transport, rows: 10, requests: 20, warmup: 1, runs: 2 }).expect(200)).body;
      expect(run.samplesMs).toHaveLength(2);
    }
    // (supertest's own requests to the client go to 127.0.0.1.)
    const lookups = asked.filter((name) => name === 'localhost').length;
    // Each cold call opens at least one new connection (HTTP/1.1: up to 20 at once), each looked up without the tuning.
    if (cached) expect(lookups).toBeLessThanOrEqual(1);
    else expect(lookups).toBeGreaterThanOrEqual(transport === 'json' || transport === 'proto-h1' ? 20 : 2);
  });
});
