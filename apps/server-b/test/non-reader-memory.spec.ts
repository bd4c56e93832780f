import type { INestMicroservice } from '@nestjs/common';
import { CONNECTION_LIMITS, DEFAULT_SETTINGS } from '@bench/config';
import { getSamplesCodec } from '@bench/proto';
import { buildRowRange } from '@bench/samples';
import { freePort, grpcCall, holdUnread, readTooSlowly, RESET_AT_DEADLINE, RESET_ONCE_STALLED, rssAfterGc, slowReaderOutcome, unreadOutcome, waitFor } from '@bench/testing';
import { createServerB } from '../src/server';

// Issue 47: a caller that never reads a 1,000,000-row unary GetSamples reply (the blog's ①-3). The
// reply is produced whole, as the blog's server did, before its first byte can go (its length comes
// first); then what server-b holds for that caller is the encoded message, until the call's deadline
// (plus CONNECTION_LIMITS.deadlineGrace), CONNECTION_LIMITS.replyStall without a byte taken, or its
// disconnect, after which it is returned.

const ROWS = 1_000_000;
/** GetSamplesParam { count: 1,000,000 }. */
const REQUEST = Buffer.from([0x08, 0xc0, 0x84, 0x3d]);
const GET_SAMPLES = '/sample.SampleService/GetSamples';

/** The reply's encoded size, from its last 10,000 rows (the widest: their numbers have the most digits). */
function messageBytes(): number {
  return (getSamplesCodec('proto-loader').responseSerialize({ samples: buildRowRange(ROWS - 10_000, ROWS) }).length / 10_000) * ROWS;
}

describe('server-b: a caller that never reads a 1,000,000-row unary reply', () => {
  let app: INestMicroservice;
  let url: string;
  let baseline: number;
  /**
   * What server-b may hold for the caller once the reply is queued, garbage collected: the one message
   * it queued (the live copy), and up to two more that the allocator keeps mapped after they were
   * freed (the encoded slices, the concatenated reply grpc-js framed). Measured: 2.2 messages.
   */
  let heldBound: number;
  /** How long producing the reply took here, measured by the first call: the second's deadline is calibrated by it. */
  let producedMs: number;

  beforeAll(async () => {
    heldBound = 3 * messageBytes();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    app = await createServerB({ ...DEFAULT_SETTINGS, maxRows: ROWS }, `127.0.0.1:${port}`, false);
    await app.listen();
    baseline = rssAfterGc();
  });
  afterAll(() => app.close());

  /** Waits until, garbage collected, server-b's memory is back within one message of where it started. */
  const returned = () => waitFor('RSS back within one message of its start', () => rssAfterGc() - baseline < heldBound / 3, CONNECTION_LIMITS.replyStall.ms);

  it('holds at most the encoded message three times while the reply is queued, resets it once it stalled, and returns its memory', async () => {
    const unread = await holdUnread(url, grpcCall(GET_SAMPLES, REQUEST), baseline);
    producedMs = unread.producedMs;
    expect(unreadOutcome(unread, heldBound, CONNECTION_LIMITS.replyStall.ms)).toBe(RESET_ONCE_STALLED);
    await returned();
  }, 300_000);

  it("resets a slow reader's stream at the call's deadline and returns its memory", async () => {
    const deadlineMs = 2 * producedMs;
    // Reading a window several times within the stall limit, 150 MB would take hours.
    const slow = await readTooSlowly(url, grpcCall(GET_SAMPLES, REQUEST, deadlineMs), CONNECTION_LIMITS.replyStall.ms / 10);
    expect(slowReaderOutcome(slow, deadlineMs)).toBe(RESET_AT_DEADLINE);
    await returned();
  }, 300_000);
});
