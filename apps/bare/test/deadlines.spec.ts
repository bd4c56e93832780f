import * as grpc from '@grpc/grpc-js';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SETTINGS } from '@bench/config';
import { samplePackageDefinition } from '@bench/proto';
import { abandonedReplies, buildRows, DEADLINE_HEADER } from '@bench/samples';
import { waitFor, keepAbandonedLog } from '@bench/testing';
import { createGrpcServer } from '../src/grpc-server';
import { createJsonServer } from '../src/json-server';

// The bare servers stop a reply with its caller, as the Nest ones do (issue 31). 500,000 rows take
// seconds to produce here, far longer than the 200-ms deadline.
const settings = { ...DEFAULT_SETTINGS, maxRows: 1_000_000 };
const BIG = 500_000;
const DEADLINE_MS = 200;

/** Why each reply stopped, as the apps log it. */
const abandonedLines = keepAbandonedLog();

describe('bare server-a: a JSON reply ends with its caller', () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    server = createJsonServer(settings);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));

  it('a reply of several slices is the one-body JSON, with its Content-Length', async () => {
    const response = await fetch(`${base}/server-a/25000`);
    const text = await response.text();
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(JSON.parse(text)).toEqual({ samples: buildRows(25_000) });
  }, 30_000);

  it(`a ${DEADLINE_MS}-ms deadline header stops the reply; /health answers within 2 s of it`, async () => {
    const before = abandonedReplies();
    await new Promise<void>((resolve) => {
      http
        .get(`${base}/server-a/${BIG}`, { agent: false, headers: { [DEADLINE_HEADER]: String(DEADLINE_MS) } }, (res) => {
          res.resume();
          res.on('close', resolve);
        })
        .on('error', () => resolve());
    });
    await waitFor('the reply counted as abandoned', () => abandonedReplies() > before);
    expect(abandonedLines.at(-1)).toContain(`abandoned: the caller's deadline of ${DEADLINE_MS} ms passed`);
    expect((await fetch(`${base}/health`, { signal: AbortSignal.timeout(2_000) })).status).toBe(200);
  }, 30_000);
});

describe('bare server-b: a GetSamples reply ends with its call', () => {
  let server: grpc.Server;
  let client: grpc.Client & Record<string, (r: unknown, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null) => void) => grpc.ClientUnaryCall>;

  beforeAll(async () => {
    server = createGrpcServer(settings);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    const loaded = grpc.loadPackageDefinition(samplePackageDefinition()) as unknown as { sample: { SampleService: typeof grpc.Client } };
    client = new loaded.sample.SampleService(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as typeof client;
  });
  afterAll(() => {
    client.close();
    server.forceShutdown();
  });

  it.each([
    ['grpc-timeout', (done: (e: grpc.ServiceError | null) => void) => client.GetSamples({ count: BIG }, { deadline: Date.now() + DEADLINE_MS }, done)],
    [
      'a cancel',
      (done: (e: grpc.ServiceError | null) => void) => {
        const call = client.GetSamples({ count: BIG }, {}, done);
        setTimeout(() => call.cancel(), 100);
      },
    ],
  ])('%s stops the work', async (_what, start) => {
    const before = abandonedReplies();
    const error = await new Promise<grpc.ServiceError | null>((resolve) => start(resolve));
    expect([grpc.status.DEADLINE_EXCEEDED, grpc.status.CANCELLED]).toContain(error?.code);
    await waitFor('the reply counted as abandoned', () => abandonedReplies() > before);
    expect(abandonedLines.at(-1)).toMatch(new RegExp(`GetSamples reply of ${BIG} rows abandoned`));
  }, 30_000);
});
