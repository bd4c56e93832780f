import { BLOG_CASES } from '../../src/plan/cases';
import { FakeDriver } from '../../src/measure/drivers/fake-driver';
import type { Visit, RawResult } from '../../src/model/model';
import { toCell } from '../../src/model/results';
import { MAX_TIMED_WARMUP_CALLS, runVisits } from '../../src/measure/runner';

const byId = (id: string) => BLOG_CASES.find((c) => c.id === id)!;
const plan: Visit[] = [
  { network: 'loopback', variant: 'blog', record: byId('①-1'), transports: ['json', 'grpc'], warmup: 1, warmupMs: 0, runs: 3, settleMs: 0, forks: 0, fork: 0, visits: 1, visit: 1, cold: true, firstPosition: 0, deadlineMs: 10_000, budgetMs: null, minRuns: 1 },
  { network: 'loopback', variant: 'blog', record: byId('20k×4'), transports: ['json'], warmup: 0, warmupMs: 0, runs: 2, settleMs: 0, forks: 0, fork: 0, visits: 1, visit: 1, cold: true, firstPosition: 0, deadlineMs: 10_000, budgetMs: null, minRuns: 1 },
];

describe('runVisits with a scripted driver', () => {
  it('prepares each transport, then interleaves the timed repetitions and records their order', async () => {
    const driver = new FakeDriver((call) =>
      call.transport === 'json' ? { latenciesMs: [100, 10, 30, 20], coldMs: 50, bytesPerResponse: 236 } : { latenciesMs: [5, 4, 6, 8] },
    );
    const done: RawResult[][] = [];
    const reps: number[] = [];
    const results = await runVisits(plan, driver, { onVisitDone: (r) => void done.push(r), onRepetition: (_p, rep) => void reps.push(rep) });

    expect(done.map((r) => r.length)).toEqual([2, 1]);
    expect(done.flat()).toEqual(results);
    expect(reps).toEqual([1, 2, 3, 1, 2]);
    expect(driver.calls.slice(0, 8).map((c) => `${c.transport}:${c.cold ? 'cold+' : ''}w${c.warmup}r${c.runs}`)).toEqual([
      'json:cold+w1r0',
      'grpc:cold+w1r0',
      'json:w0r1',
      'grpc:w0r1',
      'json:w0r1',
      'grpc:w0r1',
      'json:w0r1',
      'grpc:w0r1',
    ]);

    // The warm-up takes the first scripted latency; the timed runs the next three.
    const json = toCell(results[0]);
    expect(json).toMatchObject({ variant: 'blog', case: '①-1', transport: 'json', ok: true, error: null, coldMs: 50, bytes: 236, warmupMs: [100] });
    expect(json.samplesMs).toEqual([10, 30, 20]);
    expect(json.sampleOrder).toEqual([0, 2, 4]);
    expect(json.summary).toMatchObject({ n: 3, median: 20, mean: 20, min: 10, max: 30 });
    // Costs are summed over repetitions (CPU) and maxed (peak RSS).
    expect(json.client).toEqual({ cpuUserMs: 3, cpuSystemMs: 0, peakRssBytes: 1001 });
    expect(json.server).toEqual({ cpuUserMs: 6, cpuSystemMs: 0, peakRssBytes: 2001 });

    const grpc = toCell(results[1]);
    expect(grpc.sampleOrder).toEqual([1, 3, 5]);
    expect(grpc.summary).toMatchObject({ median: 6, min: 4, max: 8 });
    expect(toCell(results[2])).toMatchObject({ rowsPerCall: 80_000, bytesPerCall: 236 * 4, blogMs: 220.704, sampleOrder: [0, 1] });
  });

  it("gives each transport the path meter's counts over its own timed calls only (the network stage's delayer)", async () => {
    // A scripted delayer: every reading, the running totals grow by what the calls since moved.
    const totals = { cpuMs: 0, packets: 0 };
    const driver = new FakeDriver((call) => {
      // json calls cost the path 2 ms and 10 packets each, grpc 1 ms and 4 (cold and warm-up calls too: not counted).
      const each = call.transport === 'json' ? { cpuMs: 2, packets: 10 } : { cpuMs: 1, packets: 4 };
      const calls = call.runs + call.warmup + (call.cold ? 1 : 0);
      totals.cpuMs += each.cpuMs * calls;
      totals.packets += each.packets * calls;
      return { latenciesMs: [5, 5, 5, 5] };
    });
    const results = await runVisits([plan[0]], driver, { onVisitDone: () => undefined }, { pathMeter: async () => ({ ...totals }) });
    expect(results.map((r) => [r.transport, r.delayer])).toEqual([
      ['json', { cpuMs: 6, packets: 30 }],
      ['grpc', { cpuMs: 3, packets: 12 }],
    ]);
    expect(toCell(results[0]).delayer).toEqual({ cpuMs: 6, packets: 30 });
    // No meter (loopback): no field at all, so loopback documents stay as they were.
    const [loopback] = await runVisits([plan[0]], driver, { onVisitDone: () => undefined });
    expect('delayer' in loopback).toBe(false);
    // A meter that fails leaves the cost unknown, and the cell succeeds.
    const [unknown] = await runVisits([plan[0]], driver, { onVisitDone: () => undefined }, { pathMeter: () => Promise.reject(new Error('gone')) });
    expect(unknown).toMatchObject({ error: null, delayer: null });
    // A stage whose servers receive in a thread of their own: that thread's CPU is carried per cell too.
    const [threaded] = await runVisits([plan[0]], driver, { onVisitDone: () => undefined }, { pathMeter: async () => ({ ...totals, receiveCpuMs: totals.cpuMs / 2 }) });
    expect(threaded.delayer).toEqual({ cpuMs: 6, packets: 30, receiveCpuMs: 3 });
  });

  it("gives each transport the stage's counters over its own timed calls, and a failed one every call up to its failure", async () => {
    // A scripted server namespace: each json call overflows its listen queue 100 times, each grpc call once.
    let overflows = 0;
    const tcp = () => ({ listenOverflows: overflows, listenDrops: 0, syncookiesSent: 0, syncookiesRecv: 0, syncookiesFailed: 0, outRsts: 0, estabResets: 0, abortOnData: 0, abortOnClose: 0 });
    const pathCounters = async () => ({ dns: null, envoy: null, tcp: tcp() });
    const counting = (fail: { failFromRepetition?: number; error?: string }) =>
      new FakeDriver((call) => {
        overflows += (call.transport === 'json' ? 100 : 1) * (call.runs + call.warmup + (call.cold ? 1 : 0));
        return call.transport === 'json' ? { latenciesMs: [5], ...fail } : { latenciesMs: [5] };
      });
    // json fails at its second timed call: its cold call and warm-up (2 calls), its first timed call and the failed one.
    const [json, grpc] = await runVisits([plan[0]], counting({ failFromRepetition: 2, error: 'read ECONNRESET' }), { onVisitDone: () => undefined }, { pathCounters });
    expect(json).toMatchObject({ error: 'repetition 2: read ECONNRESET', pathCounters: { dns: null, envoy: null, tcp: { listenOverflows: 400 } } });
    expect(grpc.pathCounters?.tcp?.listenOverflows).toBe(3);
    // Failed in its cold call and warm-up: what those counted.
    const [coldJson, coldGrpc] = await runVisits([plan[0]], counting({ error: 'read ECONNRESET' }), { onVisitDone: () => undefined }, { pathCounters });
    expect([coldJson.error, coldJson.pathCounters?.tcp?.listenOverflows, coldGrpc.pathCounters?.tcp?.listenOverflows]).toEqual(['read ECONNRESET', 200, 3]);
  });

  it("waits after a failure until the server namespace's counters stop moving, so a burst's late connections count to it", async () => {
    let resets = 0;
    const pathCounters = async () => ({ dns: null, envoy: null, tcp: { listenOverflows: 0, listenDrops: 0, syncookiesSent: 0, syncookiesRecv: 0, syncookiesFailed: resets, outRsts: resets, estabResets: 0, abortOnData: 0, abortOnClose: 0 } });
    const driver = new FakeDriver((call) => {
      if (call.transport === 'json' && call.runs > 0) {
        // The failed burst's other connections are reset over the next 0.6 s.
        for (const afterMs of [100, 300, 600]) setTimeout(() => (resets += 10), afterMs);
        return { error: 'read ECONNRESET' };
      }
      return { latenciesMs: [5] };
    });
    const [json, grpc] = await runVisits([plan[0]], driver, { onVisitDone: () => undefined }, { pathCounters });
    expect(json.pathCounters?.tcp?.syncookiesFailed).toBe(30);
    expect(grpc.pathCounters?.tcp?.syncookiesFailed).toBe(0);
  });

  it('warms up with single untimed calls until the warm-up calls add up to warmupMs', async () => {
    const driver = new FakeDriver(() => ({ latenciesMs: [30], coldMs: 20 }));
    const timedWarmup: Visit = { ...plan[0], transports: ['json'], warmup: 1, warmupMs: 100 };
    const [json] = await runVisits([timedWarmup], driver, { onVisitDone: () => undefined });
    // cold 20 + one counted warm-up call 30 = 50 ms; two more calls (80, then 110 ms ≥ 100) end the warm-up.
    expect(driver.calls.map((c) => `${c.cold ? 'cold+' : ''}w${c.warmup}r${c.runs}`)).toEqual(['cold+w1r0', 'w0r1', 'w0r1', 'w0r1', 'w0r1', 'w0r1']);
    expect(toCell(json)).toMatchObject({ warmupMs: [30, 30, 30], samplesMs: [30, 30, 30], sampleOrder: [0, 1, 2] });
  });

  it('on a later visit makes no cold call and re-warms, after beforeVisit has run', async () => {
    const driver = new FakeDriver(() => ({ latenciesMs: [30], coldMs: 20 }));
    const revisit: Visit = { ...plan[0], transports: ['json'], warmup: 1, warmupMs: 50, runs: 2, cold: false, visit: 3, visits: 10 };
    const seen: string[] = [];
    const beforeVisit = async (planned: Visit) => {
      seen.push(`quiet wait before visit ${planned.visit} after ${driver.calls.length} calls`);
    };
    const [json] = await runVisits([revisit], driver, { onVisitDone: () => undefined, beforeVisit });
    // One counted warm-up call (30 ms) and one more (60 ≥ 50) re-warm; then the two timed calls.
    expect(driver.calls.map((c) => `${c.cold ? 'cold+' : ''}w${c.warmup}r${c.runs}`)).toEqual(['w1r0', 'w0r1', 'w0r1', 'w0r1']);
    expect(seen).toEqual(['quiet wait before visit 3 after 0 calls']);
    expect(toCell(json)).toMatchObject({ coldMs: null, warmupMs: [30, 30], samplesMs: [30, 30] });
  });

  it('with a budget, stops repeating once the timed calls add up to it (after the minimum), and records the runs made', async () => {
    const driver = new FakeDriver((call) => ({ latenciesMs: [call.transport === 'json' ? 30 : 20] }));
    const budgeted: Visit = { ...plan[0], warmup: 0, runs: 100, budgetMs: 120, minRuns: 1 };
    const results = await runVisits([budgeted], driver, { onVisitDone: () => undefined });
    // 50 ms per repetition (json 30 + grpc 20): after 3 repetitions 150 ≥ 120.
    expect(results.map((r) => `${r.transport}:${r.runs}:${toCell(r).samplesMs.length}`)).toEqual(['json:3:3', 'grpc:3:3']);
    const slow: Visit = { ...budgeted, budgetMs: 10, minRuns: 4 };
    expect((await runVisits([slow], driver, { onVisitDone: () => undefined })).map((r) => r.runs)).toEqual([4, 4]);
  });

  it('bounds the timed warm-up by a call count when calls take no measurable time', async () => {
    const driver = new FakeDriver(() => ({ latenciesMs: [0] }));
    const [json] = await runVisits([{ ...plan[0], transports: ['json'], warmup: 0, warmupMs: 1_000, runs: 1 }], driver, { onVisitDone: () => undefined });
    expect(toCell(json).warmupMs).toHaveLength(MAX_TIMED_WARMUP_CALLS);
  });

  it('probes the machine just before and just after each case, once for all its transports', async () => {
    const readings = [7, 8, 9, 10];
    const probe = jest.fn(() => readings.shift()!);
    const results = await runVisits(plan, new FakeDriver(() => ({ latenciesMs: [1] })), { onVisitDone: () => undefined }, { probe });
    expect(probe).toHaveBeenCalledTimes(4);
    expect(results.map((r) => r.machineProbeMs)).toEqual([{ before: 7, after: 8 }, { before: 7, after: 8 }, { before: 9, after: 10 }]);
    expect((await runVisits(plan, new FakeDriver(() => ({})), { onVisitDone: () => undefined }))[0].machineProbeMs).toBeNull();
  });

  it('records a transport that fails to prepare and goes on with the other', async () => {
    const driver = new FakeDriver((call) => (call.transport === 'grpc' ? { error: 'code 14: server-b unavailable' } : { latenciesMs: [1] }));
    const results = await runVisits(plan, driver, { onVisitDone: () => undefined });
    expect(results.map((r) => r.error)).toEqual([null, 'code 14: server-b unavailable', null]);
    expect(toCell(results[1])).toMatchObject({ ok: false, summary: null, samplesMs: [], sampleOrder: [] });
    expect(driver.calls.filter((c) => c.transport === 'grpc')).toHaveLength(1);
  });

  it('records a transport that dies mid-case with the repetition it died at', async () => {
    const driver = new FakeDriver((call) =>
      call.transport === 'grpc' ? { latenciesMs: [1], error: 'code 14: connection refused', failFromRepetition: 2 } : { latenciesMs: [1] },
    );
    const results = await runVisits(plan.slice(0, 1), driver, { onVisitDone: () => undefined });
    expect(results[0].error).toBeNull();
    expect(results[1].error).toBe('repetition 2: code 14: connection refused');
    expect(toCell(results[0]).samplesMs).toHaveLength(3);
  });

  it("passes each case's deadline with every call", async () => {
    const driver = new FakeDriver(() => ({ latenciesMs: [1] }));
    await runVisits([{ ...plan[0], deadlineMs: 1234 }], driver, { onVisitDone: () => undefined });
    expect(new Set(driver.calls.map((c) => c.deadlineMs))).toEqual(new Set([1234]));
  });

  it('ends a visit that runs past its bound: the hanging call and the calls after it fail as `bound`, nothing hangs', async () => {
    const driver = new FakeDriver((call) => (call.transport === 'json' && call.runs > 0 ? { stallMs: 60_000 } : { latenciesMs: [1] }));
    const started = performance.now();
    const [json, grpc] = await runVisits(plan.slice(0, 1), driver, { onVisitDone: () => undefined }, { boundMs: () => 200 });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(json).toMatchObject({ measurement: null, failure: { kind: 'bound', message: 'repetition 1: visit ended: it ran past its bound of 200 ms' } });
    expect(grpc.failure).toMatchObject({ kind: 'bound' });
    expect(toCell(json)).toMatchObject({ ok: false, error: expect.stringContaining('past its bound') });
  });

  it('classifies a call past its deadline apart from other call errors', async () => {
    const driver = new FakeDriver((call) => ({ error: call.transport === 'json' ? 'timed call failed: DEADLINE_EXCEEDED: no complete reply' : 'wrong reply: expected 1 rows, got 0' }));
    const [json, grpc] = await runVisits(plan.slice(0, 1), driver, { onVisitDone: () => undefined });
    expect([json.failure?.kind, grpc.failure?.kind]).toEqual(['deadline', 'call']);
  });

  it('stops between cases once aborted', async () => {
    const abort = new AbortController();
    const driver = new FakeDriver(() => ({ latenciesMs: [1] }));
    const results = await runVisits(plan, driver, { onVisitDone: () => abort.abort() }, { signal: abort.signal });
    expect(results).toHaveLength(2);
  });
});
