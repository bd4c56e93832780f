import { duration, estimateLeftMs, Progress } from '../../src/measure/progress';
import type { RawResult } from '../../src/model';
import { plannedVisit } from '../planned-visit';

describe('estimateLeftMs: the progress lines\' time left', () => {
  it('scales the visits left by the pace the finished ones kept against their costs', () => {
    // Three visits costed 1, 1 and 2 s; the first took 2 s of visit time: the 3 s left take 6 s.
    expect(estimateLeftMs([1_000, 1_000, 2_000], 1, 0, 2_000)).toBe(6_000);
    // Half-way through the second at the same pace.
    expect(estimateLeftMs([1_000, 1_000, 2_000], 1, 0.5, 3_000)).toBe(5_000);
  });

  it("adds what is left of the time outside visits (sets' and stages' starts), spread over the visits", () => {
    expect(estimateLeftMs([1_000, 1_000, 2_000, 4_000], 1, 0, 1_000, 8_000)).toBe(7_000 + 6_000);
    expect(estimateLeftMs([1_000, 1_000], 2, 0, 2_000, 8_000)).toBe(0);
  });

  it('knows nothing before the first timed part', () => {
    expect(estimateLeftMs([1_000, 1_000], 0, 0, 0)).toBeNull();
  });
});

describe('duration', () => {
  it('reads as seconds, minutes or hours', () => {
    expect([duration(4_400), duration(61_000), duration(3_600_000 + 61_000), duration(null)]).toEqual(['4s', '1m01s', '1h01m', '?']);
  });
});

describe('a finished visit’s line', () => {
  const lineOf = (disturbance: RawResult['disturbance']) => {
    const written: string[] = [];
    const stream = { isTTY: false, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
    const visit = plannedVisit('①-1', { transports: ['json'] });
    const result = { transport: 'json', error: null, measurement: { samplesMs: [2, 2, 3], coldMs: 5 }, runs: 3, disturbance } as unknown as RawResult;
    new Progress([visit], null, stream).visitDone(visit, [result], 0, 1);
    return written.join('');
  };

  it('ends with DISTURBED and the shares when other processes took more than a tenth of the machine', () => {
    expect(lineOf([{ visit: 1, fork: 0, startedAt: 'now', wallMs: 1000, outsideShare: 0.48, stealShare: 0.01 }])).toContain("DISTURBED (other processes 48 %, steal 1 % of the machine's CPU)");
    expect(lineOf([{ visit: 1, fork: 0, startedAt: 'now', wallMs: 1000, outsideShare: 0.02, stealShare: 0 }])).not.toContain('DISTURBED');
    expect(lineOf(undefined)).not.toContain('DISTURBED');
  });

  it("names the broker's part of a brokered transport: messages per call and its CPU per 1,000 calls", () => {
    const written: string[] = [];
    const stream = { isTTY: false, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
    const visit = plannedVisit('①-1', { transports: ['nest-nats'] });
    const broker = { kind: 'nats', calls: 4, cpuMs: 0.4, peakRssBytes: 1, counters: { messagesIn: 8, messagesOut: 8, bytesIn: 1, bytesOut: 1, source: 'varz' } };
    const result = { transport: 'nest-nats', error: null, measurement: { samplesMs: [2, 2, 3, 2], coldMs: 5 }, runs: 4, broker } as unknown as RawResult;
    new Progress([visit], null, stream).visitDone(visit, [result], 0, 1);
    expect(written.join('')).toContain('nest-nats median 2.000 ms (cold 5.000 ms; via nats 2.0 in / 2.0 out messages per call, 100 ms broker CPU per 1,000 calls)');
  });
});
