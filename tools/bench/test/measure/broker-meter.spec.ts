import { BLOG_CASES } from '../../src/plan/cases';
import { FakeDriver } from '../../src/measure/drivers/fake-driver';
import type { BrokerCounters, Visit } from '../../src/model';
import { toCell } from '../../src/model/results';
import { runVisits } from '../../src/measure/runner';
import { BrokerStretch, type BrokerMeter } from '../../src/measure/broker-meter';
import { mergeVisits } from '../../src/measure/visits';

/**
 * A scripted broker: each request through it is 2 messages in and 2 out (a request and its reply, as NATS
 * counts them), 100 bytes each way, and 0.5 ms of its CPU; what it counted and spent grows as calls are made.
 */
function scriptedBroker(kind = 'nats'): BrokerMeter & { requests: number; resets: number } {
  const broker = {
    kind,
    requests: 0,
    resets: 0,
    counters: async (): Promise<BrokerCounters> => ({ messagesIn: 2 * broker.requests, messagesOut: 2 * broker.requests, bytesIn: 100 * broker.requests, bytesOut: 100 * broker.requests, source: 'scripted /varz' }),
    sample: (resetPeak?: boolean) => {
      if (resetPeak) broker.resets++;
      return { cpuMs: 0.5 * broker.requests, peakRssBytes: 10_000_000 + broker.requests };
    },
  };
  return broker;
}

const byId = (id: string) => BLOG_CASES.find((c) => c.id === id)!;
const visit = (id: string): Visit => ({ network: 'loopback', variant: 'blog', record: byId(id), transports: ['json', 'nest-nats'], warmup: 2, warmupMs: 0, runs: 3, settleMs: 0, forks: 0, fork: 0, visits: 1, visit: 1, cold: true, firstPosition: 0, deadlineMs: 10_000, budgetMs: null, minRuns: 1 });

describe("the brokers' part of a visit (BrokerStretch, through runVisits)", () => {
  it("counts the broker over its transport's timed calls only: not the cold call, the warm-up or the other transports", async () => {
    const nats = scriptedBroker();
    const driver = new FakeDriver((call) => {
      // Every call through nest-nats (cold, warm-up and timed alike) moves the broker by its requests.
      if (call.transport === 'nest-nats') nats.requests += (call.runs + call.warmup + (call.cold ? 1 : 0)) * call.requests;
      return { latenciesMs: [5, 5, 5, 5, 5, 5] };
    });
    const [json, brokered] = await runVisits([visit('②-1')], driver, { onVisitDone: () => undefined }, { brokers: (t) => (t === 'nest-nats' ? nats : undefined) });

    expect(json.broker).toBeUndefined();
    // ②-1 is 10 requests a call: 3 timed calls are 30 requests, 60 messages each way, 15 ms of the broker's CPU.
    expect(brokered.broker).toEqual({
      kind: 'nats',
      calls: 3,
      cpuMs: 15,
      peakRssBytes: 10_000_000 + 3 * 10 + 30,
      counters: { messagesIn: 60, messagesOut: 60, bytesIn: 3000, bytesOut: 3000, source: 'scripted /varz' },
    });
    // The peak window opened once, before the first timed call.
    expect(nats.resets).toBe(1);
    expect(toCell(brokered).broker?.counters?.messagesIn).toBe(60);
  });

  it('adds up over visits (calls, CPU, counters) and keeps the higher peak', async () => {
    const nats = scriptedBroker();
    const driver = new FakeDriver((call) => {
      if (call.transport === 'nest-nats') nats.requests += call.runs + call.warmup + (call.cold ? 1 : 0);
      return { latenciesMs: [1, 1, 1, 1, 1, 1] };
    });
    const first = (await runVisits([visit('①-1')], driver, { onVisitDone: () => undefined }, { brokers: (t) => (t === 'nest-nats' ? nats : undefined) }))[1];
    const second = (await runVisits([{ ...visit('①-1'), cold: false, visit: 2, visits: 2 }], driver, { onVisitDone: () => undefined }, { brokers: (t) => (t === 'nest-nats' ? nats : undefined) }))[1];
    const cell = toCell(mergeVisits(first, second, 1));
    expect(cell.broker).toMatchObject({ calls: 6, cpuMs: 3, counters: { messagesIn: 12, messagesOut: 12 } });
    expect(cell.broker?.peakRssBytes).toBe(Math.max(first.broker!.peakRssBytes, second.broker!.peakRssBytes));
  });

  it("leaves the counters unknown when a reading fails, and the whole part when the broker's process is gone", async () => {
    const flaky: BrokerMeter = { ...scriptedBroker(), counters: () => Promise.reject(new Error('curl: connection refused')) };
    const stretch = new BrokerStretch(['nest-nats'], () => flaky);
    await stretch.begin();
    await stretch.around('nest-nats', async () => 'ok');
    await stretch.end();
    expect(stretch.costOf('nest-nats')).toMatchObject({ kind: 'nats', calls: 1, counters: null });

    const gone: BrokerMeter = {
      ...scriptedBroker(),
      sample: () => {
        throw new Error('ENOENT: /proc/4242/stat');
      },
    };
    const dead = new BrokerStretch(['nest-nats'], () => gone);
    await dead.begin();
    await expect(dead.around('nest-nats', async () => 7)).resolves.toBe(7);
    await dead.end();
    expect(dead.costOf('nest-nats')).toBeNull();
  });

  it('says so where two transports of a visit share one broker (its counters count both)', async () => {
    const shared = scriptedBroker('redis');
    const stretch = new BrokerStretch(['nest-redis', 'nest-nats'], () => shared);
    await stretch.begin();
    await stretch.end();
    expect(stretch.costOf('nest-redis')?.counters?.source).toMatch(/counts nest-redis and nest-nats together/);
    expect(stretch.has('json')).toBe(false);
  });
});
