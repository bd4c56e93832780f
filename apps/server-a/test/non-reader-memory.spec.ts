import type { INestApplication } from '@nestjs/common';
import { DEFAULT_SETTINGS } from '@bench/config';
import { freePort, NON_READER_CASES, NonReaderProbe } from '@bench/testing';
import { createServerAH2 } from '../src/http-platform';

// Issue 47: a caller that never reads a 1,000,000-row unary Connect reply (connect-proto). connect-es
// encodes and writes the message whole; what server-a then holds for that caller is returned at the
// call's deadline (plus CONNECTION_LIMITS.deadlineGrace), after CONNECTION_LIMITS.replyStall without a
// byte taken, or at its disconnect.

const ROWS = 1_000_000;

/** Connect's unary GetSamples: the bare message GetSamplesParam { count: 1,000,000 }, its deadline in connect-timeout-ms. */
const connectProto = (deadlineMs?: number) => ({
  headers: {
    ':path': '/sample.SampleService/GetSamples',
    'content-type': 'application/proto',
    'connect-protocol-version': '1',
    ...(deadlineMs === undefined ? {} : { 'connect-timeout-ms': String(deadlineMs) }),
  },
  body: Buffer.from([0x08, 0xc0, 0x84, 0x3d]),
});

// connect-fastify logs each reset reply ("handler for rpc … failed … ECANCELED"), as it should; not here.
const consoleError = console.error.bind(console);
jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => String(args[0]).startsWith('handler for rpc ') || consoleError(...args));

describe('server-a: a Connect caller that never reads a 1,000,000-row unary reply', () => {
  let app: INestApplication;
  let probe: NonReaderProbe;

  beforeAll(async () => {
    const port = await freePort();
    app = await createServerAH2({ ...DEFAULT_SETTINGS, maxRows: ROWS });
    await app.listen(port, '127.0.0.1');
    probe = new NonReaderProbe(`http://127.0.0.1:${port}`, connectProto, ROWS);
  });
  afterAll(() => app.close(), 15_000);

  it.each(NON_READER_CASES)('%s', async (_what, caller, outcome) => expect(await probe[caller]()).toBe(outcome), 300_000);
});
