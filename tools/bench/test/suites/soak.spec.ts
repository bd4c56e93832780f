import { runLoad } from '../../src/suites/common/closed-loop';
import { judgeSoak, summarizeLoad } from '../../src/suites/soak/judge';
import { soakFailure, type SoakResults } from '../../src/suites/soak/measure';
import { renderSoakHtml, renderSoakMarkdown, type SoakDocument } from '../../src/suites/soak/render';

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
    expect(judgeSoak([load(0)], { a: 100 }, { a: 120 })).toEqual({ errorsOk: true, rssJudged: true, rssOk: true, rssGrowth: { a: 1.2 } });
    expect(judgeSoak([load(0)], { a: 100 }, { a: 121 }).rssOk).toBe(false);
    // A few seconds of load cannot tell a leak from heaps growing to their working size.
    expect(judgeSoak([load(0)], { a: 100 }, { a: 150 }, 2)).toMatchObject({ rssJudged: false, rssOk: true });
    expect(judgeSoak([load(1)], { a: 100 }, { a: 100 }).errorsOk).toBe(false);
  });

  it('renders results.md and report.html from the document alone, and fails the run on errors or growth', () => {
    const results: SoakResults = { loads: [load(0)], rssWarm: { a: 100 * 1048576 }, rssEnd: { a: 110 * 1048576 }, verdict: judgeSoak([load(0)], { a: 100 }, { a: 110 }) };
    const doc: SoakDocument = {
      schemaVersion: 2,
      suite: 'soak',
      incomplete: false,
      provenance: { gitCommit: 'abc' },
      settings: { durationS: 60, warmupS: 10, httpConcurrency: 100, grpcConcurrency: 50, rows: 1, startedAt: 'x', profile: 'default', cpuCount: 2, cores: '2 CPUs' },
      plan: {},
      results,
    };
    const md = renderSoakMarkdown(doc);
    expect(md).toContain('| a | 100.0 MiB | 110.0 MiB | 10.0% |');
    expect(md).toContain('Verdict: no errors; RSS within +20%.');
    expect(renderSoakHtml(doc)).toContain('data-section="memory"');
    expect(soakFailure(results)).toBeNull();
    expect(soakFailure({ ...results, loads: [load(3)], verdict: judgeSoak([load(3)], { a: 100 }, { a: 130 }) })).toBe('3 call(s) failed; RSS grew past the limit');
  });
});
