import { DEFAULT_SETTINGS } from '@bench/config';
import { freePort, grpcCall, NON_READER_CASES, NonReaderProbe } from '@bench/testing';
import { createServerB, type ServerB } from '../src/server';

// Issue 47: a caller that never reads a 1,000,000-row unary GetSamples reply (the blog's ①-3). The
// reply is produced whole, as the blog's server did, before its first byte can go (its length comes
// first); then what server-b holds for that caller is the encoded message, until the call's deadline
// (plus CONNECTION_LIMITS.deadlineGrace), CONNECTION_LIMITS.replyStall without a byte taken, or its
// disconnect, after which it is returned.

const ROWS = 1_000_000;
/** GetSamplesParam { count: 1,000,000 }. */
const REQUEST = Buffer.from([0x08, 0xc0, 0x84, 0x3d]);

describe('server-b: a caller that never reads a 1,000,000-row unary reply', () => {
  let app: ServerB;
  let probe: NonReaderProbe;

  beforeAll(async () => {
    const port = await freePort();
    app = await createServerB({ ...DEFAULT_SETTINGS, maxRows: ROWS }, `127.0.0.1:${port}`, false);
    await app.listen();
    probe = new NonReaderProbe(`http://127.0.0.1:${port}`, (deadlineMs) => grpcCall('/sample.SampleService/GetSamples', REQUEST, deadlineMs), ROWS);
  });
  afterAll(() => app.close());

  it.each(NON_READER_CASES)('%s', async (_what, caller, outcome) => expect(await probe[caller]()).toBe(outcome), 300_000);
});
