import { runLoad } from '../../src/suites/common/closed-loop';
import { judgeMemory, judgeSoak, summarizeLoad } from '../../src/suites/soak/judge';
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

  const MiB = 1048576;
  /** A server's readings every 2 s from -10 s to `durationS`, RSS and heap in MiB given as functions of t. */
  const series = (durationS: number, rss: (t: number) => number, heap: (t: number) => number = () => 40) =>
    Array.from({ length: durationS / 2 + 6 }, (_, i) => {
      const t = i * 2 - 10;
      return { t, rssBytes: rss(t) * MiB, heapUsedBytes: heap(t) * MiB, heapTotalBytes: 60 * MiB, externalBytes: 2 * MiB };
    });

  it('passes memory that grew after the warm-up and then settled, and fails memory still growing in the second half', () => {
    // Grew 26 % in the first 20 s, then flat: V8 sizing its heap, not a leak.
    const settles = series(60, (t) => (t <= 0 ? 143 : Math.min(180, 143 + 1.85 * t)));
    // The same 26 %, spread evenly over the minute: a leak.
    const leaks = series(60, (t) => 143 + 0.62 * Math.max(0, t));
    const verdict = judgeSoak([load(0)], { a: settles, b: leaks }, 60);
    expect(verdict.rssGrowth.a).toBeCloseTo(180 / 143, 3);
    expect(verdict.memory!.a).toMatchObject({ lateGrowth: 1, heapFloorGrowth: 1, ok: true });
    // The level at the end is the median of the readings at 58 and 60 s.
    expect(verdict.memory!.b.lateGrowth).toBeCloseTo((143 + 0.62 * 59) / (143 + 0.62 * 30), 6);
    expect(verdict.memory!.b.ok).toBe(false);
    expect(verdict).toMatchObject({ errorsOk: true, rssJudged: true, rssOk: false });
    expect(judgeSoak([load(0)], { a: settles }, 60).rssOk).toBe(true);
    expect(judgeSoak([load(1)], { a: settles }, 60).errorsOk).toBe(false);
  });

  it('judges the heap by its floor (after GC), not by readings full of garbage', () => {
    // Garbage between collections: heapUsed saw-tooths between 40 and 90 MiB; the floor stays at 40.
    const sawtooth = series(60, () => 150, (t) => (Math.abs(t) % 6 === 0 ? 40 : 90));
    expect(judgeMemory(sawtooth, 60)).toMatchObject({ heapFloorGrowth: 1, ok: true });
    // Retained objects: the floor climbs from 40 to 60 MiB while RSS has room to spare.
    const retains = series(60, () => 150, (t) => 40 + Math.max(0, t) / 3);
    expect(judgeMemory(retains, 60).heapFloorGrowth).toBeGreaterThan(1.1);
    expect(judgeMemory(retains, 60).ok).toBe(false);
    // A server that does not report its heap (Go's) is judged on RSS alone.
    expect(judgeMemory(series(60, () => 150, () => 0), 60)).toMatchObject({ heapFloorGrowth: null, ok: true });
  });

  it('does not judge memory over a few seconds of load', () => {
    const quick = series(2, (t) => 100 + 25 * Math.max(0, t));
    expect(judgeSoak([load(0)], { a: quick }, 2)).toMatchObject({ rssJudged: false, rssOk: true });
  });

  it('renders results.md and report.html from the document alone, and fails the run on errors or growth', () => {
    const settled = series(60, (t) => (t <= 0 ? 100 : 110));
    const growing = series(60, (t) => 100 + Math.max(0, t));
    const results: SoakResults = {
      loads: [load(0)],
      rssWarm: { a: 100 * MiB },
      rssEnd: { a: 110 * MiB },
      memory: { a: settled },
      verdict: judgeSoak([load(0)], { a: settled }, 60),
    };
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
    expect(md).toContain('| a | 100.0 MiB | 110.0 MiB | 10.0% | 0.0% | 0.0% |');
    expect(md).toContain('Verdict: no errors; memory settled (RSS and heap after GC within +10% over the second half).');
    // The readings every 10 s, from the warm-up's first (t = -10) to the last.
    expect(md).toContain('| -10 | 100.0 | 40.0 | 2.0 |');
    expect(md).toContain('| 60 | 110.0 | 40.0 | 2.0 |');
    const html = renderSoakHtml(doc);
    expect(html).toContain('data-section="memory"');
    expect(html).toContain('data-section="memory-series"');
    expect(soakFailure(results)).toBeNull();
    const failed = { ...results, loads: [load(3)], memory: { a: growing }, verdict: judgeSoak([load(3)], { a: growing }, 60) };
    expect(soakFailure(failed)).toBe('3 call(s) failed; memory still growing at the end of the soak');
    expect(renderSoakMarkdown({ ...doc, results: failed })).toContain('memory STILL GROWING');
  });

  it('still renders a run recorded before the readings (RSS at two points, the +20 % rule)', () => {
    const old: SoakResults = {
      loads: [load(0)],
      rssWarm: { 'server-a': 143.3 * MiB },
      rssEnd: { 'server-a': 180.6 * MiB },
      verdict: { errorsOk: true, rssJudged: true, rssOk: false, rssGrowth: { 'server-a': 180.6 / 143.3 } },
    };
    const md = renderSoakMarkdown({
      schemaVersion: 2,
      suite: 'soak',
      incomplete: false,
      provenance: {},
      settings: { durationS: 60, warmupS: 10, httpConcurrency: 100, grpcConcurrency: 50, rows: 1, startedAt: 'x', profile: 'default', cpuCount: 2, cores: '2 CPUs' },
      plan: {},
      results: old,
    });
    expect(md).toContain('| server-a | 143.3 MiB | 180.6 MiB | 26.0% | — | — |');
    expect(md).toContain('Verdict: no errors; RSS GREW too much.');
  });
});
