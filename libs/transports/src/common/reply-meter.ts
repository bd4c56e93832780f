import type { ReplyTally } from '../contract';

/** Counts reply messages, their encoded bytes and the time spent decoding them, as they are decoded. */
export class ReplyMeter {
  private tally: ReplyTally = { messages: 0, bytes: 0, decodeMs: 0 };

  record(bytes: number, decodeMs: number): void {
    this.tally.messages += 1;
    this.tally.bytes += bytes;
    this.tally.decodeMs += decodeMs;
  }

  /** What was recorded since the previous take. */
  take(): ReplyTally {
    const taken = this.tally;
    this.tally = { messages: 0, bytes: 0, decodeMs: 0 };
    return taken;
  }
}
