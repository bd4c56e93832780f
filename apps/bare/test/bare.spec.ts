import * as grpc from '@grpc/grpc-js';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SETTINGS } from '@bench/config';
import { samplePackageDefinition } from '@bench/proto';
import { buildRows, NDJSON_MEDIA_TYPE, readNdjson } from '@bench/samples';
import { readBulk } from '@bench/testing';
import { createGrpcServer } from '../src/grpc-server';
import { createJsonServer } from '../src/json-server';

const settings = { ...DEFAULT_SETTINGS, maxRows: 50 };

describe('bare server-a (node:http)', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createJsonServer(settings);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('serves the blog rows with a Content-Length', async () => {
    const response = await fetch(`${base}/server-a/3`);
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await response.json()).toEqual({ samples: buildRows(3) });
  });

  it.each([
    ['abc', 400, 'integer'],
    ['1.5', 400, 'integer'],
    ['%E0%A4%A', 400, 'integer'],
    ['0', 400, 'min'],
    ['51', 400, 'max'],
  ])('answers %s with %i (%s) and stays up', async (count, status, rule) => {
    const response = await fetch(`${base}/server-a/${count}`);
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ field: 'count', rule });
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });

  it('answers unknown routes with 404 and other methods with 405', async () => {
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    expect((await fetch(`${base}/server-a/1`, { method: 'POST' })).status).toBe(405);
  });

  it('streams the rows as NDJSON to a caller that asks, and refuses a bad count with 400 before any byte of stream', async () => {
    const streamed = await fetch(`${base}/server-a/50`, { headers: { accept: NDJSON_MEDIA_TYPE } });
    expect(streamed.headers.get('content-type')).toBe(NDJSON_MEDIA_TYPE);
    expect((await readNdjson(streamed.body as unknown as AsyncIterable<Uint8Array>)).values).toEqual(buildRows(50));
    for (const count of ['-1', 'abc', '51']) {
      const bad = await fetch(`${base}/server-a/${count}`, { headers: { accept: NDJSON_MEDIA_TYPE } });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ statusCode: 400, field: 'count' });
    }
  });

  it('reports phases in /metrics', async () => {
    const before = await (await fetch(`${base}/metrics?resetPeak=true`)).json();
    await fetch(`${base}/server-a/50`);
    const after = await (await fetch(`${base}/metrics`)).json();
    expect(after.encodeMs).toBeGreaterThan(before.encodeMs);
    expect(after.buildMs).toBeGreaterThan(before.buildMs);
  });
});

describe('bare server-b (@grpc/grpc-js)', () => {
  let server: grpc.Server;
  let port: number;
  let client: grpc.Client & Record<string, (request: unknown, callback: (error: grpc.ServiceError | null, reply?: unknown) => void) => void>;

  beforeAll(async () => {
    server = createGrpcServer(settings);
    port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    const loaded = grpc.loadPackageDefinition(samplePackageDefinition()) as unknown as { sample: { SampleService: typeof grpc.Client } };
    client = new loaded.sample.SampleService(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as typeof client;
  });
  afterAll(async () => {
    client.close();
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  });

  const call = (request: unknown) =>
    new Promise<{ error: grpc.ServiceError | null; reply?: unknown }>((resolve) =>
      client.GetSamples(request, (error: grpc.ServiceError | null, reply?: unknown) => resolve({ error, reply })),
    );

  it('serves the blog rows', async () => {
    expect(await call({ count: 2 })).toEqual({ error: null, reply: { samples: buildRows(2) } });
  });

  it.each([[{ count: 0 }], [{ count: 51 }], [{}]])('answers %p with INVALID_ARGUMENT', async (request) => {
    const { error } = await call(request);
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error?.details).toContain('count');
  });

  it('answers undecodable bytes with INVALID_ARGUMENT', async () => {
    const error = await new Promise<grpc.ServiceError | null>((resolve) =>
      client.makeUnaryRequest('/sample.SampleService/GetSamples', (b: Buffer) => b, (b: Buffer) => b, Buffer.from([0x0f]), (e) => resolve(e)),
    );
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error?.details).toContain('[request: type]');
  });

  it('streams PathProbe/Bulk in chunks and refuses bad sizes with INVALID_ARGUMENT', async () => {
    const address = `127.0.0.1:${port}`;
    expect(await readBulk(address, { bytes: 600_000, chunkBytes: 250_000 })).toEqual({ chunks: [250_000, 250_000, 100_000], nonZero: 0, error: null });
    expect((await readBulk(address, { bytes: 300_000 })).chunks).toEqual([262_144, 37_856]);
    for (const request of [{ bytes: 0 }, { bytes: 256 * 1024 * 1024 + 1 }, { bytes: 10, chunkBytes: 4 * 1024 * 1024 + 1 }]) {
      const { error } = await readBulk(address, request);
      expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(error?.details).toMatch(/\[(bytes|chunkBytes): (min|max)\]/);
    }
  });
});
