import * as grpc from '@grpc/grpc-js';
import type { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DEFAULT_SETTINGS } from '@bench/config';
import { ORDERS } from '@bench/payloads';
import { samplePackageDefinition, sampleGrpcOptions } from '@bench/proto';
import { abandonedReplies, buildRows } from '@bench/samples';
import { freePort, waitFor, keepAbandonedLog } from '@bench/testing';
import { AppModule } from '../src/app.module';
import { startServerB, type StartedServerB } from './payload-server';

// Work ends with its caller (issue 31): a GetSamples call whose grpc-timeout passes, or that is
// cancelled, stops being built and encoded, and the server answers health soon after. 500,000 rows
// take seconds to build and encode with proto-loader here, far longer than the 200-ms deadline.
const BIG = 500_000;
const DEADLINE_MS = 200;
const HEALTH_WITHIN_MS = 2_000;

type Callback = (error: grpc.ServiceError | null, reply?: unknown) => void;
type Unary = (request: unknown, options: grpc.CallOptions, callback: Callback) => grpc.ClientUnaryCall;
type UnaryClient = grpc.Client & Record<string, Unary>;

/** Why each reply stopped, as the apps log it. */
const abandonedLines = keepAbandonedLog();

describe('server-b: a GetSamples reply ends with its call', () => {
  let app: INestMicroservice;
  let samples: UnaryClient;
  let health: UnaryClient;

  beforeAll(async () => {
    const url = `127.0.0.1:${await freePort()}`;
    app = await NestFactory.createMicroservice(AppModule.register({ ...DEFAULT_SETTINGS, maxRows: 1_000_000 }), { ...sampleGrpcOptions(url), logger: false });
    await app.listen();
    const loaded = grpc.loadPackageDefinition(samplePackageDefinition()) as unknown as {
      sample: { SampleService: typeof grpc.Client };
      grpc: { health: { v1: { Health: typeof grpc.Client } } };
    };
    samples = new loaded.sample.SampleService(url, grpc.credentials.createInsecure()) as UnaryClient;
    health = new loaded.grpc.health.v1.Health(url, grpc.credentials.createInsecure()) as UnaryClient;
  });
  afterAll(async () => {
    samples.close();
    health.close();
    await app.close();
  });

  const healthy = () =>
    new Promise<void>((resolve, reject) =>
      health.Check({ service: '' }, { deadline: Date.now() + HEALTH_WITHIN_MS }, (error) => (error ? reject(error) : resolve())),
    );

  it('a reply built and encoded in slices is the same message as one encoded whole', async () => {
    const reply = await new Promise<unknown>((resolve, reject) => samples.GetSamples({ count: 25_000 }, {}, (e, r) => (e ? reject(e) : resolve(r))));
    expect(reply).toEqual({ samples: buildRows(25_000) });
  }, 30_000);

  it(`grpc-timeout of ${DEADLINE_MS} ms: DEADLINE_EXCEEDED, the work stops, health answers within 2 s`, async () => {
    const before = abandonedReplies();
    const error = await new Promise<grpc.ServiceError | null>((resolve) =>
      samples.GetSamples({ count: BIG }, { deadline: Date.now() + DEADLINE_MS }, (e) => resolve(e)),
    );
    expect(error?.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    await waitFor('the reply counted as abandoned', () => abandonedReplies() > before);
    // The server's own deadline timer and the client's cancel at its deadline race: either stops it.
    expect(abandonedLines.at(-1)).toMatch(new RegExp(`GetSamples reply of ${BIG} rows abandoned: the call('s deadline passed| was cancelled)`));
    await healthy();
  }, 30_000);

  it('a cancelled call stops the work; health answers', async () => {
    const before = abandonedReplies();
    const call = samples.GetSamples({ count: BIG }, {}, () => undefined);
    setTimeout(() => call.cancel(), 100);
    await waitFor('the reply counted as abandoned', () => abandonedReplies() > before);
    expect(abandonedLines.at(-1)).toContain('abandoned: the call was cancelled');
    await healthy();
  }, 30_000);
});

describe('server-b: a payload endpoint\'s reply ends with its call', () => {
  let orders: StartedServerB;
  beforeAll(async () => (orders = await startServerB(ORDERS, 1_000_000)));
  afterAll(() => orders.close());

  it(`GetOrders of 200,000 items with a ${DEADLINE_MS}-ms deadline: DEADLINE_EXCEEDED, the work stops`, async () => {
    const before = abandonedReplies();
    const client = orders.client as unknown as Record<string, Unary>;
    const error = await new Promise<grpc.ServiceError | null>((resolve) =>
      client[ORDERS.names.method]({ count: 200_000 }, { deadline: Date.now() + DEADLINE_MS }, (e) => resolve(e)),
    );
    expect(error?.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    await waitFor('the reply counted as abandoned', () => abandonedReplies() > before);
    expect(abandonedLines.at(-1)).toMatch(/GetOrders reply of 200000 items abandoned/);
  }, 30_000);
});
