import { runLoad } from '../../src/suites/common/closed-loop';
import { judgeMemory, judgeSoak, MAX_RSS_GROWTH, summarizeLoad } from '../../src/suites/soak/judge';
import { node24ServerA, node24ServerB } from './soak-recorded';
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
  /** A server's readings every 2 s from -10 s to `durationS`, RSS and V8's reserved heap in MiB given as functions of t. */
  const series = (durationS: number, rss: (t: number) => number, heapTotal: (t: number) => number = () => 60) =>
    Array.from({ length: durationS / 2 + 6 }, (_, i) => {
      const t = i * 2 - 10;
      return { t, rssBytes: rss(t) * MiB, heapUsedBytes: 40 * MiB, heapTotalBytes: heapTotal(t) * MiB, externalBytes: 2 * MiB };
    });

  it('passes memory that grew after the warm-up and then stayed, and fails memory still growing in the second half', () => {
    // Grew 26 % in the first 20 s, then flat: V8 sizing its heap, not a leak.
    const plateau = series(60, (t) => (t <= 0 ? 143 : Math.min(180, 143 + 1.85 * t)));
    // The same 26 %, spread evenly over the minute: a leak.
    const leaks = series(60, (t) => 143 + 0.62 * Math.max(0, t));
    const verdict = judgeSoak([load(0)], { a: plateau, b: leaks }, 60);
    expect(verdict.rssGrowth.a).toBeCloseTo(180 / 143, 6);
    expect(verdict.memory!.a).toEqual({ growth: verdict.rssGrowth.a, lateGrowth: 1, heapLateGrowth: 1, ok: true });
    expect(verdict.memory!.b.lateGrowth).toBeCloseTo((143 + 0.62 * 60) / (143 + 0.62 * 30), 6);
    expect(verdict.memory!.b.ok).toBe(false);
    expect(verdict).toMatchObject({ errorsOk: true, rssJudged: true, rssOk: false });
    expect(judgeSoak([load(0)], { a: plateau }, 60).rssOk).toBe(true);
    expect(judgeSoak([load(1)], { a: plateau }, 60).errorsOk).toBe(false);
  });

  it('passes memory given back and taken again below its earlier peak (V8 shrinking its heap when the load eases)', () => {
    // server-a in soak-2026-11-28T10-15-45Z: 144 → 149.5 MiB, down to 116.6 at 97 s, back up to 134.8 by 180 s.
    const shrinks = series(180, (t) => (t < 96 ? 144 + (5.5 * Math.max(0, t)) / 96 : 116.6 + (18.2 * (t - 96)) / 84), (t) => (t < 96 ? 70 : 51));
    const judged = judgeMemory(shrinks, 180);
    expect(judged.growth).toBeLessThan(1);
    expect(judged.lateGrowth).toBeLessThan(1.01);
    expect(judged.ok).toBe(true);
  });

  it("judges V8's reserved heap as well as RSS, and RSS alone where the heap is not reported", () => {
    // The heap keeps being enlarged while RSS has room to spare (pages already resident): retained objects.
    const retains = series(60, () => 150, (t) => 60 + Math.max(0, t) / 2);
    expect(judgeMemory(retains, 60).heapLateGrowth).toBeCloseTo(90 / 75, 6);
    expect(judgeMemory(retains, 60).ok).toBe(false);
    // A server that does not report its heap (Go's) is judged on RSS alone.
    expect(judgeMemory(series(60, () => 150, () => 0), 60)).toMatchObject({ heapLateGrowth: null, ok: true });
  });

  it('judges recorded soaks: Node 24 grows its heap to the load and then stays (the +20 % rule failed it), so it passes', () => {
    const readings = (rows: ReadonlyArray<readonly [number, number, number]>) =>
      rows.map(([t, rss, heapTotal]) => ({ t, rssBytes: rss * MiB, heapUsedBytes: 0, heapTotalBytes: heapTotal * MiB, externalBytes: 0 }));
    const verdict = judgeSoak([load(0)], { 'server-a': readings(node24ServerA), 'server-b': readings(node24ServerB) }, 180);
    // server-b: 212 → 294 MiB from the warm-up's end, all of it in the first ~35 s.
    expect(verdict.rssGrowth['server-b']).toBeGreaterThan(MAX_RSS_GROWTH);
    expect(verdict.memory!['server-b'].lateGrowth).toBeLessThan(1.01);
    // server-a: gave 33 MiB back at 97 s and took some again.
    expect(verdict.rssGrowth['server-a']).toBeLessThan(1);
    expect(verdict).toMatchObject({ rssJudged: true, rssOk: true });
    // The same readings, cut at 60 s: server-b still on the way up for its first 35 s, on its plateau after.
    const first60 = (rows: ReadonlyArray<readonly [number, number, number]>) => readings(rows.filter(([t]) => t <= 60));
    expect(judgeSoak([load(0)], { 'server-a': first60(node24ServerA), 'server-b': first60(node24ServerB) }, 60).rssOk).toBe(true);
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
    expect(md).toContain("Verdict: no errors; memory on a plateau (the second half's RSS and heap peaks within +10% of the first half's).");
    // The readings every 10 s, from the warm-up's first (t = -10) to the last.
    expect(md).toContain('| -10 | 100.0 | 60.0 | 40.0 | 2.0 |');
    expect(md).toContain('| 60 | 110.0 | 60.0 | 40.0 | 2.0 |');
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
