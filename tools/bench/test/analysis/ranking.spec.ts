import { ranking } from '../../src/analysis';
import { summarize } from '../../src/model/stats';
import type { Cell } from '../../src/model';
import { handMadeCell } from '../hand-made-cell';

// A ②-1 case over four transports on loopback: Nest TCP fastest, NATS through its broker, gRPC, and Kafka
// refused by its broker; a second case over two transports only (the verdict's, not ranked).
const timed = (transport: Cell['transport'], samplesMs: number[], extra: Partial<Cell> = {}) =>
  handMadeCell({ network: 'loopback', case: '②-1', transport, requests: 10, samplesMs, summary: summarize(samplesMs), client: { cpuUserMs: 3, cpuSystemMs: 1, peakRssBytes: 1 }, server: { cpuUserMs: 1, cpuSystemMs: 0, peakRssBytes: 1 }, ...extra });
const tcp = timed('nest-tcp', [1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8]);
const grpc = timed('grpc', [2.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7, 2.8]);
const nats = timed('nest-nats', [1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0], {
  broker: { kind: 'nats', calls: 9, cpuMs: 4.5, peakRssBytes: 1, counters: null },
});
const kafka = handMadeCell({ network: 'loopback', case: '②-1', transport: 'nest-kafka', ok: false, error: 'The request included a message larger than the max message size the server will accept', samplesMs: [], summary: null });
const pair = [handMadeCell({ network: 'loopback', case: '①-1' }), handMadeCell({ network: 'loopback', case: '①-1', transport: 'grpc' })];

describe('every transport ranked (analysis/ranking.ts)', () => {
  const [group, ...others] = ranking([...pair, grpc, kafka, nats, tcp]);

  it('ranks only the cases a run measured over three transports or more', () => {
    expect(others).toEqual([]);
    expect(group).toMatchObject({ place: 'loopback', variant: 'blog', case: '②-1' });
  });

  it('puts the cells from the fastest median to the slowest, the failed one last with its reason', () => {
    expect(group.cells.map((c) => [c.transport, c.rank])).toEqual([
      ['nest-tcp', 1],
      ['nest-nats', 2],
      ['grpc', 3],
      ['nest-kafka', null],
    ]);
    expect(group.cells[3]).toMatchObject({ medianMs: null, factor: null, failure: expect.stringContaining('larger than the max message size') });
  });

  it('gives each its factor against the fastest, bounded by both medians’ CIs, and a tie within 1.1×', () => {
    const [fastest, second, third] = group.cells;
    expect(fastest).toMatchObject({ factor: 1, range: null, tiesFastest: true });
    expect(second.factor).toBeCloseTo(1.6 / 1.4, 9);
    expect(second.tiesFastest).toBe(false);
    expect(third.factor).toBeCloseTo(2.4 / 1.4, 9);
    const ci = (c: Cell) => c.summary!.medianCi!;
    expect(third.range!.low).toBeCloseTo(ci(grpc).low / ci(tcp).high, 9);
    expect(third.range!.high).toBeCloseTo(ci(grpc).high / ci(tcp).low, 9);
  });

  it("counts what 1,000 calls cost: the apps', and the broker's on top for a brokered call", () => {
    const [fastest, second] = group.cells;
    expect(fastest).toMatchObject({ cpuPer1000CallsMs: (1000 * 5) / 9, brokerCpuPer1000CallsMs: null });
    expect(second.brokerCpuPer1000CallsMs).toBeCloseTo(500, 9);
    expect(second.cpuPer1000CallsMs).toBeCloseTo((1000 * 5) / 9 + 500, 9);
  });
});
