import { runLoad } from '../src/soak/load';
import { judgeSoak, renderSoakMarkdown, summarizeLoad } from '../src/soak/report';

describe('soak: load loop', () => {
  it('keeps `concurrency` calls in flight until the duration passes, counting errors by kind', async () => {
    let inFlight = 0;
    let peak = 0;
    let n = 0;
    const result = await runLoad(4, 60, async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      if (++n % 5 === 0) throw new Error('boom');
    });
    expect(peak).toBe(4);
    expect(result.calls).toBe(result.latenciesMs.length + result.errors);
    expect(result.errors).toBeGreaterThan(0);
    expect(result.errorKinds).toEqual({ boom: result.errors });
    expect(result.elapsedMs).toBeGreaterThanOrEqual(60);
  });
});

describe('soak: judgement', () => {
  const load = (errors: number) =>
    summarizeLoad('server-b (gRPC)', 50, { calls: 1000, errors, errorKinds: {}, latenciesMs: Array.from({ length: 100 }, (_, i) => i + 1), elapsedMs: 2000 });

  it('summarizes throughput and percentiles', () => {
    expect(load(0)).toMatchObject({ calls: 1000, callsPerSecond: 500, p50Ms: 50.5, p99Ms: expect.closeTo(99.01, 6) });
  });

  it('passes with no errors and RSS within +20%, and says which rule failed otherwise', () => {
    expect(judgeSoak([load(0)], { a: 100 }, { a: 120 })).toEqual({ errorsOk: true, rssOk: true, rssGrowth: { a: 1.2 } });
    expect(judgeSoak([load(0)], { a: 100 }, { a: 121 }).rssOk).toBe(false);
    expect(judgeSoak([load(1)], { a: 100 }, { a: 100 }).errorsOk).toBe(false);
    const md = renderSoakMarkdown([load(0)], { a: 100 * 1048576 }, { a: 110 * 1048576 }, judgeSoak([load(0)], { a: 100 }, { a: 110 }), { durationS: 60, warmupS: 10, rows: 1, startedAt: 'x' });
    expect(md).toContain('| a | 100.0 MiB | 110.0 MiB | 10.0% |');
    expect(md).toContain('Verdict: no errors; RSS within +20%.');
  });
});
