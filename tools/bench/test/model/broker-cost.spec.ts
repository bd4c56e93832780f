import { addBrokerCost, addBrokerCounters, countersBetween, type BrokerCost } from '../../src/model';

const cost = (over: Partial<BrokerCost> = {}): BrokerCost => ({
  kind: 'redis',
  calls: 10,
  cpuMs: 2,
  peakRssBytes: 9_000_000,
  counters: { messagesIn: 20, messagesOut: null, bytesIn: 4000, bytesOut: 5000, source: 'INFO' },
  ...over,
});

describe("a cell's broker figures (model/broker-cost.ts)", () => {
  it('takes a difference of two cumulative readings, an uncounted figure staying unknown', () => {
    const before = { messagesIn: 100, messagesOut: null, bytesIn: 1000, bytesOut: 2000, source: 'INFO (before)' };
    const after = { messagesIn: 120, messagesOut: null, bytesIn: 1500, bytesOut: 2600, source: 'INFO' };
    expect(countersBetween(before, after)).toEqual({ messagesIn: 20, messagesOut: null, bytesIn: 500, bytesOut: 600, source: 'INFO' });
  });

  it("adds two visits' figures: calls, CPU and counters add up, the peak is the higher", () => {
    expect(addBrokerCost(cost(), cost({ peakRssBytes: 11_000_000 }))).toEqual({
      kind: 'redis',
      calls: 20,
      cpuMs: 4,
      peakRssBytes: 11_000_000,
      counters: { messagesIn: 40, messagesOut: null, bytesIn: 8000, bytesOut: 10000, source: 'INFO' },
    });
  });

  it('is unknown once either visit is (a broker not read, a counters reading that failed)', () => {
    expect(addBrokerCost(cost(), null)).toBeNull();
    expect(addBrokerCost(cost({ counters: null }), cost())?.counters).toBeNull();
    expect(addBrokerCounters(null, cost().counters)).toBeNull();
  });
});
