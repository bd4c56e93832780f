import type * as grpc from '@grpc/grpc-js';
import { DEFAULT_SETTINGS } from '@bench/config';
import { bindGrpcServer } from '@bench/proto';
import { grpcCall, NON_READER_CASES, NonReaderProbe } from '@bench/testing';
import { createGrpcServer } from '../src/grpc-server';

// Issue 47: bare server-b, bound as its main.ts binds it, returns what a caller that never reads a
// 1,000,000-row GetSamples reply holds, as the Nest one does (apps/server-b/test/non-reader-memory.spec.ts).

const ROWS = 1_000_000;
/** GetSamplesParam { count: 1,000,000 }. */
const REQUEST = Buffer.from([0x08, 0xc0, 0x84, 0x3d]);

describe('bare server-b: a caller that never reads a 1,000,000-row unary reply', () => {
  let server: grpc.Server;
  let probe: NonReaderProbe;

  beforeAll(async () => {
    server = createGrpcServer({ ...DEFAULT_SETTINGS, maxRows: ROWS });
    const port = await bindGrpcServer(server, '127.0.0.1:0', DEFAULT_SETTINGS, 'server-b');
    probe = new NonReaderProbe(`http://127.0.0.1:${port}`, (deadlineMs) => grpcCall('/sample.SampleService/GetSamples', REQUEST, deadlineMs), ROWS);
  });
  afterAll(() => server.forceShutdown());

  it.each(NON_READER_CASES)('%s', async (_what, caller, outcome) => expect(await probe[caller]()).toBe(outcome), 300_000);
});
