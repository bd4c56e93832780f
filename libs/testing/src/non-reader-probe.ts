import type { OutgoingHttpHeaders } from 'node:http2';
import { CONNECTION_LIMITS } from '@bench/config';
import { getSamplesCodec } from '@bench/proto';
import { buildRowRange } from '@bench/samples';
import { holdUnread, readTooSlowly, RESET_AT_DEADLINE, RESET_ONCE_STALLED, rssAfterGc, slowReaderOutcome, unreadOutcome } from './non-reader';
import { waitFor } from './wait-for';

/** One unary call's request, for a deadline or none. */
export type UnaryRequest = (deadlineMs?: number) => { headers: OutgoingHttpHeaders; body: Buffer };

/**
 * Issue 47's two callers of a `rows`-row unary GetSamples reply against a server in this process: one
 * that never reads (held within its bound, reset once stalled) and one that reads far too slowly (reset
 * at its deadline), each followed by the process's memory coming back. Construct once the server
 * listens, before anything else allocates: its RSS then is the baseline.
 */
export class NonReaderProbe {
  /**
   * What the server may hold for the caller once the reply is queued, garbage collected: the one
   * message it queued (the live copy), and up to two more that the allocator keeps mapped after they
   * were freed (the encoded slices, the concatenated reply the library framed). Measured: 2.2 (gRPC).
   */
  readonly heldBound: number;
  private readonly baseline = rssAfterGc();
  /** How long producing the reply took, measured by the caller that never reads: the slow reader's deadline is calibrated by it. */
  private producedMs: number | undefined;

  constructor(
    private readonly url: string,
    private readonly request: UnaryRequest,
    rows: number,
  ) {
    // The reply's encoded size, from its last 10,000 rows (the widest: their numbers have the most digits).
    this.heldBound = 3 * (getSamplesCodec('proto-loader').responseSerialize({ samples: buildRowRange(rows - 10_000, rows) }).length / 10_000) * rows;
  }

  /** A caller that never reads: unreadOutcome's answer, once the memory came back within one message. */
  async neverReads(): Promise<string> {
    const unread = await holdUnread(this.url, this.request(), this.baseline);
    this.producedMs = unread.producedMs;
    const outcome = unreadOutcome(unread, this.heldBound, CONNECTION_LIMITS.replyStall.ms);
    await this.returned();
    return outcome;
  }

  /** A caller reading one window several times within the stall limit (150 MB would take hours), with a deadline of twice neverReads' production time: slowReaderOutcome's answer, once the memory came back. */
  async readsTooSlowly(): Promise<string> {
    if (this.producedMs === undefined) throw new Error('neverReads first: it measures the production time the deadline is calibrated by');
    const deadlineMs = Math.ceil(2 * this.producedMs);
    const slow = await readTooSlowly(this.url, this.request(deadlineMs), CONNECTION_LIMITS.replyStall.ms / 10);
    const outcome = slowReaderOutcome(slow, deadlineMs);
    await this.returned();
    return outcome;
  }

  /**
   * Waits until, garbage collected, the process's memory is back within half its bound (1.5 messages) of
   * where it started: no live copy is left, and the allocator keeps part of what it freed (measured
   * after a reset: 0.4 message for server-b, 0.9 for bare server-b, whose own baseline is smaller).
   */
  private async returned(): Promise<void> {
    let above = 0;
    try {
      await waitFor('memory returned', () => (above = rssAfterGc() - this.baseline) < this.heldBound / 2, CONNECTION_LIMITS.replyStall.ms);
    } catch {
      throw new Error(`RSS still ${Math.round(above / 1e6)} MB above its start after ${CONNECTION_LIMITS.replyStall.ms} ms; returned means under ${Math.round(this.heldBound / 2e6)} MB`);
    }
  }
}

/** NonReaderProbe's callers in the order they must run (the first calibrates the second), with what each should answer. */
export const NON_READER_CASES = [
  ['holds at most the encoded message three times while the reply is queued, resets it once it stalled, and returns its memory', 'neverReads', RESET_ONCE_STALLED],
  ["resets a slow reader's stream at the call's deadline and returns its memory", 'readsTooSlowly', RESET_AT_DEADLINE],
] as const;
