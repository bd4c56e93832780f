import { BLOG_CASES } from '../src/cases';
import { FakeDriver } from '../src/drivers/fake-driver';
import type { PlannedCase, RawResult } from '../src/model';
import { toCaseResult } from '../src/results';
import { runCases } from '../src/runner';

const byId = (id: string) => BLOG_CASES.find((c) => c.id === id)!;
const plan: PlannedCase[] = [
  { record: byId('①-1'), transport: 'json', warmup: 1, runs: 3 },
  { record: byId('①-1'), transport: 'grpc', warmup: 1, runs: 3 },
  { record: byId('20k×4'), transport: 'json', warmup: 0, runs: 2 },
];

describe('runCases with a scripted driver', () => {
  it('runs every case in order, hands raw samples to onResult, and summarizes them exactly', async () => {
    const driver = new FakeDriver((call) =>
      call.transport === 'json' ? { latenciesMs: [100, 10, 30, 20], coldMs: 50, bytesPerResponse: 236 } : { latenciesMs: [5, 4, 6, 8] },
    );
    const seen: RawResult[] = [];
    const results = await runCases(plan, driver, { onResult: (r) => void seen.push(r) });

    expect(seen).toEqual(results);
    expect(driver.calls).toEqual([
      { transport: 'json', rows: 1, requests: 1, warmup: 1, runs: 3 },
      { transport: 'grpc', rows: 1, requests: 1, warmup: 1, runs: 3 },
      { transport: 'json', rows: 20_000, requests: 4, warmup: 0, runs: 2 },
    ]);
    // The warm-up takes the first scripted latency; the timed runs the next three.
    const first = toCaseResult(results[0]);
    expect(first).toMatchObject({ case: '①-1', transport: 'json', ok: true, error: null, coldMs: 50, bytes: 236, warmupMs: [100] });
    expect(first.samplesMs).toEqual([10, 30, 20]);
    expect(first.summary).toMatchObject({ n: 3, median: 20, mean: 20, min: 10, max: 30 });
    expect(toCaseResult(results[1]).summary).toMatchObject({ median: 6, min: 4, max: 8 });
    expect(toCaseResult(results[2])).toMatchObject({ rowsPerCall: 80_000, bytesPerCall: 236 * 4, blogMs: 220.704 });
  });

  it('records a failing case and goes on with the next', async () => {
    const driver = new FakeDriver((call) => (call.transport === 'grpc' ? { error: 'code 14: server-b unavailable' } : { latenciesMs: [1] }));
    const results = await runCases(plan, driver, { onResult: () => undefined });
    expect(results.map((r) => r.error)).toEqual([null, 'code 14: server-b unavailable', null]);
    const failed = toCaseResult(results[1]);
    expect(failed).toMatchObject({ ok: false, summary: null, samplesMs: [], error: 'code 14: server-b unavailable' });
  });

  it('stops between cases once aborted', async () => {
    const abort = new AbortController();
    const driver = new FakeDriver(() => ({ latenciesMs: [1] }));
    const results = await runCases(plan, driver, { onResult: () => abort.abort() }, abort.signal);
    expect(results).toHaveLength(1);
  });
});
