import * as grpc from '@grpc/grpc-js';
import type { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DEFAULT_SETTINGS } from '@bench/config';
import { samplePackageDefinition, sampleGrpcOptions } from '@bench/proto';
import { buildRows } from '@bench/samples';
import { freePort, readBulk } from '@bench/testing';
import { AppModule } from '../src/app.module';

type Callback = (error: grpc.ServiceError | null, reply?: unknown) => void;
type UnaryClient = grpc.Client & Record<string, (request: unknown, callback: Callback) => void>;

describe('server-b (gRPC)', () => {
  let app: INestMicroservice;
  let samples: UnaryClient;
  let health: UnaryClient;
  let metrics: UnaryClient;
  let url: string;

  const call = (client: UnaryClient, method: string, request: unknown) =>
    new Promise<{ error: grpc.ServiceError | null; reply?: unknown }>((resolve) =>
      client[method](request, (error, reply) => resolve({ error, reply })),
    );

  beforeAll(async () => {
    url = `127.0.0.1:${await freePort()}`;
    app = await NestFactory.createMicroservice(AppModule.register({ ...DEFAULT_SETTINGS, maxRows: 30_000 }), {
      ...sampleGrpcOptions(url),
      logger: false,
    });
    await app.listen();
    // A plain grpc-js client from the same contract: what grpcurl or another language would do.
    const loaded = grpc.loadPackageDefinition(samplePackageDefinition()) as unknown as {
      sample: { SampleService: typeof grpc.Client };
      grpc: { health: { v1: { Health: typeof grpc.Client } } };
      bench: { metrics: { ProcessMetrics: typeof grpc.Client } };
    };
    samples = new loaded.sample.SampleService(url, grpc.credentials.createInsecure()) as UnaryClient;
    health = new loaded.grpc.health.v1.Health(url, grpc.credentials.createInsecure()) as UnaryClient;
    metrics = new loaded.bench.metrics.ProcessMetrics(url, grpc.credentials.createInsecure()) as UnaryClient;
  });
  afterAll(async () => {
    samples.close();
    health.close();
    metrics.close();
    await app.close();
  });

  it('GetSamples returns the blog rows', async () => {
    const { error, reply } = await call(samples, 'GetSamples', { count: 3 });
    expect(error).toBeNull();
    expect(reply).toEqual({ samples: buildRows(3) });
  });

  it('GetSamplesStream sends the same rows in chunks of 10,000', async () => {
    const chunks: unknown[][] = [];
    await new Promise<void>((resolve, reject) => {
      const stream = (samples as unknown as { GetSamplesStream(r: unknown): NodeJS.ReadableStream }).GetSamplesStream({ count: 25_000 });
      stream.on('data', (chunk: { samples: unknown[] }) => chunks.push(chunk.samples));
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    expect(chunks.map((c) => c.length)).toEqual([10_000, 10_000, 5_000]);
    expect(chunks.flat()).toEqual(buildRows(25_000));
  });

  it('stops streaming when the client cancels, and stays healthy', async () => {
    const stream = (samples as unknown as { GetSamplesStream(r: unknown): grpc.ClientReadableStream<{ samples: unknown[] }> }).GetSamplesStream({
      count: 30_000,
    });
    const code = await new Promise<number>((resolve) => {
      stream.once('data', () => stream.cancel());
      stream.on('error', (error: grpc.ServiceError) => resolve(error.code));
      stream.on('end', () => resolve(grpc.status.OK));
    });
    expect(code).toBe(grpc.status.CANCELLED);
    expect((await call(samples, 'GetSamples', { count: 1 })).error).toBeNull();
  });

  it.each([
    [{ count: 0 }, 'min'],
    [{}, 'min'],
    [{ count: -1 }, 'min'],
    [{ count: 30_001 }, 'max'],
  ])('answers %p with INVALID_ARGUMENT (%s)', async (request, rule) => {
    const { error } = await call(samples, 'GetSamples', request);
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error?.details).toContain(`count: ${rule}`);
  });

  it.each([
    ['an invalid wire type', [0x0f]],
    ['a truncated varint', [0x08, 0xff]],
  ])('answers undecodable bytes (%s) with INVALID_ARGUMENT and stays healthy', async (_what, bytes) => {
    const error = await new Promise<grpc.ServiceError | null>((resolve) =>
      samples.makeUnaryRequest('/sample.SampleService/GetSamples', (b: Buffer) => b, (b: Buffer) => b, Buffer.from(bytes), (e) => resolve(e)),
    );
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error?.details).toContain('not a valid GetSamplesParam message');
    expect((await call(samples, 'GetSamples', { count: 1 })).error).toBeNull();
  });

  it('answers the standard health check and stays healthy after bad input', async () => {
    await call(samples, 'GetSamples', { count: -5 });
    const { error, reply } = await call(health, 'Check', { service: '' });
    expect(error).toBeNull();
    expect(reply).toEqual({ status: 'SERVING' });
  });

  it('reports its own CPU time and memory over bench.metrics.ProcessMetrics/Read', async () => {
    const { error, reply } = await call(metrics, 'Read', { resetPeak: true });
    expect(error).toBeNull();
    expect(reply).toEqual({
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
  });

  it('streams bench.path.PathProbe/Bulk as zero bytes in chunks, and refuses bad sizes with INVALID_ARGUMENT', async () => {
    expect(await readBulk(url, { bytes: 600_000, chunkBytes: 250_000 })).toEqual({ chunks: [250_000, 250_000, 100_000], nonZero: 0, error: null });
    expect((await readBulk(url, { bytes: 300_000 })).chunks).toEqual([262_144, 37_856]);
    for (const request of [{ bytes: 0 }, { bytes: 256 * 1024 * 1024 + 1 }, { bytes: 10, chunkBytes: 4 * 1024 * 1024 + 1 }]) {
      const { error } = await readBulk(url, request);
      expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(error?.details).toMatch(/\[(bytes|chunkBytes): (min|max)\]/);
    }
  });
});
