import type { INestApplication } from '@nestjs/common';
import * as grpc from '@grpc/grpc-js';
import request from 'supertest';
import { getSamplesCodec, samplePackageDefinition } from '@bench/proto';
import { buildRows } from '@bench/samples';
import type { FakeServer } from '@bench/testing';
import { GrpcUnaryClient } from '@bench/transports';
import { startClientAgainstFakes, type ClientAgainstFakes } from './client-against-fakes';

const GET_SAMPLES = '/sample.SampleService/GetSamples';

/** Open TCP sockets of this process (both ends of a loopback connection count). */
const openSockets = () => process.getActiveResourcesInfo().filter((resource) => resource === 'TCPSocketWrap').length;

async function until(check: () => boolean): Promise<boolean> {
  for (let waited = 0; waited < 2_000 && !check(); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  return check();
}

// Tuning lean-grpc-unary: the tuned client's unary calls on node:http2 instead of grpc-js.
describe('client, tuned: lean unary gRPC calls', () => {
  let serverB: FakeServer;
  let client: INestApplication;
  let fakes: ClientAgainstFakes;

  beforeAll(async () => {
    // A generous call deadline: 1,000 calls share two cores with the other test projects in CI.
    fakes = await startClientAgainstFakes({ variant: 'tuned', maxParallel: 1_000, callTimeoutMs: 15_000 });
    ({ serverB, client } = fakes);
  });
  afterAll(() => fakes.close());

  const http = () => request(client.getHttpServer());

  it.each([10, 100, 1_000])('②: 1 row × %i parallel calls arrive as checked rows', async (requests) => {
    const run = (await http().post('/bench/run').send({ transport: 'grpc', rows: 1, requests, warmup: 1, runs: 2 }).expect(200)).body;
    expect(run).toMatchObject({ transport: 'grpc', rows: 1, requests, rowsPerCall: requests });
    expect(run.samplesMs).toHaveLength(2);
    // The reply is still decoded by the metered codec: sizes are known.
    expect(run.bytesPerResponse).toBeGreaterThan(50);
  });

  it('fails a case loudly (502) when server-b sends the wrong rows', async () => {
    serverB.rows = (count) => buildRows(count).map((row, i) => (i === count - 1 ? { ...row, columnJ: 'tampered' } : row));
    try {
      const response = await http().post('/bench/run').send({ transport: 'grpc', rows: 5, requests: 3, warmup: 0, runs: 1 }).expect(502);
      expect(response.body.message).toContain('wrong reply: row 4 differs');
    } finally {
      serverB.rows = buildRows;
    }
  });

  it('holds calls to the case deadline (502 DEADLINE_EXCEEDED)', async () => {
    serverB.delayMs = 3_000;
    try {
      const started = Date.now();
      const response = await http().post('/bench/run').send({ transport: 'grpc', rows: 1, requests: 2, warmup: 0, runs: 1, cold: false, deadlineMs: 300 }).expect(502);
      expect(Date.now() - started).toBeLessThan(900);
      expect(response.body.message).toMatch(/DEADLINE_EXCEEDED/);
    } finally {
      serverB.delayMs = 0;
    }
  });

  it('closes its unary session when the app shuts down', async () => {
    // That close() leaves no socket open is GrpcUnaryClient's own test below; here, that shutting the app down calls it.
    const close = jest.spyOn(GrpcUnaryClient.prototype, 'close');
    try {
      const other = await startClientAgainstFakes({ variant: 'tuned' });
      await request(other.client.getHttpServer()).post('/bench/run').send({ transport: 'grpc', rows: 1, requests: 3, warmup: 0, runs: 1, cold: false }).expect(200);
      expect(close).not.toHaveBeenCalled();
      await other.close();
      expect(close).toHaveBeenCalledTimes(1);
    } finally {
      close.mockRestore();
    }
  });
});

describe('GrpcUnaryClient', () => {
  let server: grpc.Server;
  let address: string;

  beforeAll(async () => {
    // A grpc-js server that validates like server-b: the status must reach the caller as grpc-js would report it.
    const loaded = grpc.loadPackageDefinition(samplePackageDefinition()) as unknown as { sample: { SampleService: { service: grpc.ServiceDefinition } } };
    server = new grpc.Server();
    server.addService(loaded.sample.SampleService.service, {
      GetSamples: (call: grpc.ServerUnaryCall<{ count: number }, unknown>, callback: grpc.sendUnaryData<unknown>) =>
        call.request.count < 1
          ? callback({ code: grpc.status.INVALID_ARGUMENT, details: 'count must be at least 1 [count: min]' })
          : callback(null, { samples: buildRows(call.request.count) }),
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    address = `127.0.0.1:${port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.tryShutdown(() => resolve())));

  const codec = getSamplesCodec();

  it('returns the reply message, decodable as Samples', async () => {
    const unary = new GrpcUnaryClient(address, null);
    try {
      const reply = codec.responseDeserialize(await unary.call(GET_SAMPLES, codec.requestSerialize({ count: 3 }), 1_000));
      expect(reply.samples).toHaveLength(3);
    } finally {
      await unary.close();
    }
  });

  it('rejects bad input with the server\'s INVALID_ARGUMENT, code and details', async () => {
    const unary = new GrpcUnaryClient(address, null);
    try {
      await expect(unary.call(GET_SAMPLES, codec.requestSerialize({ count: 0 }), 1_000)).rejects.toMatchObject({
        code: grpc.status.INVALID_ARGUMENT,
        details: 'count must be at least 1 [count: min]',
        message: expect.stringContaining('3 INVALID_ARGUMENT'),
      });
    } finally {
      await unary.close();
    }
  });

  it('fails with UNAVAILABLE, not a hang, when nothing listens', async () => {
    const unary = new GrpcUnaryClient('127.0.0.1:9', null);
    await expect(unary.call(GET_SAMPLES, codec.requestSerialize({ count: 1 }), 1_000)).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
    await unary.close();
  });

  it('closes its connection on close(), leaving no socket open', async () => {
    const before = openSockets();
    const unary = new GrpcUnaryClient(address, null);
    await unary.call(GET_SAMPLES, codec.requestSerialize({ count: 1 }), 1_000);
    expect(openSockets()).toBeGreaterThan(before);
    await unary.close();
    // At most as many as before, not exactly: a socket of an earlier test's call may still be closing at
    // `before` (Node 24 closes the server's end of a finished session later than Node 20 did).
    expect(await until(() => openSockets() <= before)).toBe(true);
  });
});
