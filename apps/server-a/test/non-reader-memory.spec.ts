import type { INestApplication } from '@nestjs/common';
import { CONNECTION_LIMITS, DEFAULT_SETTINGS } from '@bench/config';
import { getSamplesCodec } from '@bench/proto';
import { buildRowRange } from '@bench/samples';
import { freePort, holdUnread, readTooSlowly, RESET_AT_DEADLINE, RESET_ONCE_STALLED, rssAfterGc, slowReaderOutcome, unreadOutcome, waitFor } from '@bench/testing';
import { createServerAH2 } from '../src/http-platform';

// Issue 47: a caller that never reads a 1,000,000-row unary Connect reply (connect-proto). connect-es
// encodes and writes the message whole; what server-a then holds for that caller is returned at the
// call's deadline (plus CONNECTION_LIMITS.deadlineGrace), after CONNECTION_LIMITS.replyStall without a
// byte taken, or at its disconnect.

const ROWS = 1_000_000;
/** GetSamplesParam { count: 1,000,000 }, Connect's unary body: the bare message. */
const CONNECT_PROTO = {
  headers: { ':path': '/sample.SampleService/GetSamples', 'content-type': 'application/proto', 'connect-protocol-version': '1' },
  body: Buffer.from([0x08, 0xc0, 0x84, 0x3d]),
};

// connect-fastify logs each reset reply ("handler for rpc … failed … ECANCELED"), as it should; not here.
const consoleError = console.error.bind(console);
jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => String(args[0]).startsWith('handler for rpc ') || consoleError(...args));

describe('server-a: a Connect caller that never reads a 1,000,000-row unary reply', () => {
  let app: INestApplication;
  let url: string;
  let baseline: number;
  /** As server-b's (apps/server-b/test/non-reader-memory.spec.ts): the queued message and two the allocator may keep. */
  let heldBound: number;
  let producedMs: number;

  beforeAll(async () => {
    heldBound = 3 * (getSamplesCodec('proto-loader').responseSerialize({ samples: buildRowRange(ROWS - 10_000, ROWS) }).length / 10_000) * ROWS;
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    app = await createServerAH2({ ...DEFAULT_SETTINGS, maxRows: ROWS });
    await app.listen(port, '127.0.0.1');
    baseline = rssAfterGc();
  });
  afterAll(() => app.close(), 15_000);

  const returned = () => waitFor('RSS back within one message of its start', () => rssAfterGc() - baseline < heldBound / 3, CONNECTION_LIMITS.replyStall.ms);

  it('holds at most the encoded message three times while the reply is queued, resets it once it stalled, and returns its memory', async () => {
    const unread = await holdUnread(url, CONNECT_PROTO, baseline);
    producedMs = unread.producedMs;
    expect(unreadOutcome(unread, heldBound, CONNECTION_LIMITS.replyStall.ms)).toBe(RESET_ONCE_STALLED);
    await returned();
  }, 300_000);

  it("resets a slow reader's stream at the call's deadline (connect-timeout-ms) and returns its memory", async () => {
    const deadlineMs = Math.ceil(2 * producedMs);
    const request = { ...CONNECT_PROTO, headers: { ...CONNECT_PROTO.headers, 'connect-timeout-ms': String(deadlineMs) } };
    const slow = await readTooSlowly(url, request, CONNECTION_LIMITS.replyStall.ms / 10);
    expect(slowReaderOutcome(slow, deadlineMs)).toBe(RESET_AT_DEADLINE);
    await returned();
  }, 300_000);
});
