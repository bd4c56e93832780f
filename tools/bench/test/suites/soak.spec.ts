import { runLoad } from '../../src/suites/common/closed-loop';
import { judgeMemory, judgeSoak, MAX_RSS_GROWTH, summarizeLoad } from '../../src/suites/soak/judge';
import { node20Soak180, node24Soak120, node24Soak180, type Reading } from './soak-recorded';
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
  /** A server's readings every 2 s from -10 s to `durationS`: RSS, reserved heap and heap in use in MiB, as functions of t. */
  const series = (durationS: number, rss: (t: number) => number, heapTotal: (t: number) => number = () => 60, heapUsed: (t: number) => number = () => 40) =>
    Array.from({ length: durationS / 2 + 6 }, (_, i) => {
      const t = i * 2 - 10;
      return { t, rssBytes: rss(t) * MiB, heapUsedBytes: heapUsed(t) * MiB, heapTotalBytes: heapTotal(t) * MiB, externalBytes: 2 * MiB };
    });
  const after = (t: number) => Math.max(0, t);
  /** Garbage between collections: heap in use saw-tooths from `floor` up to floor + 50 MiB every 6 s. */
  const sawtooth = (floor: (t: number) => number) => (t: number) => floor(t) + ((((t % 6) + 6) % 6) / 6) * 50;

  it('passes a heap that V8 enlarges to the load while nothing is retained, and fails a heap whose floor rises', () => {
    // RSS +26 % in the first 20 s, the reserved heap with it, heap in use saw-toothing over a flat floor.
    const sizing = series(120, (t) => 143 + Math.min(37, 1.85 * after(t)), (t) => 68 + Math.min(37, 1.85 * after(t)), sawtooth(() => 40));
    // Retained objects: the floor climbs 0.4 MiB/s, the reserved heap and RSS with it.
    const leaks = series(120, (t) => 143 + 0.4 * after(t), (t) => 68 + 0.4 * after(t), sawtooth((t) => 40 + 0.4 * after(t)));
    const verdict = judgeSoak([load(0)], { a: sizing, b: leaks }, 120);
    expect(verdict.rssGrowth.a).toBeCloseTo(180 / 143, 6);
    expect(verdict.memory!.a).toMatchObject({ liveHeapGrowth: 0, externalGrowth: 0, ok: true });
    // Floors 40 (t = 0) and 40 + 0.4 × 66 (t = 66, the second half's first trough), over RSS after warm-up.
    expect(verdict.memory!.b.liveHeapGrowth).toBeCloseTo((0.4 * 66) / 143, 6);
    expect(verdict.memory!.b.ok).toBe(false);
    expect(verdict).toMatchObject({ errorsOk: true, rssJudged: true, rssOk: false });
    expect(judgeSoak([load(0)], { a: sizing }, 120).rssOk).toBe(true);
    expect(judgeSoak([load(1)], { a: sizing }, 120).errorsOk).toBe(false);
  });

  it('fails external memory whose floor rises (Buffers kept), and judges RSS alone where the heap is not reported', () => {
    const buffers = series(120, (t) => 143 + 0.4 * after(t), () => 68, sawtooth(() => 40)).map((x) => ({ ...x, externalBytes: (2 + 0.4 * after(x.t)) * MiB }));
    expect(judgeMemory(buffers, 120).externalGrowth).toBeCloseTo((0.4 * 62) / 143, 6);
    expect(judgeMemory(buffers, 120)).toMatchObject({ liveHeapGrowth: 0, ok: false });
    // A server that does not report its heap (Go's): the second half's RSS peak within +10 % of the first's.
    const go = (rss: (t: number) => number) => series(120, rss, () => 0, () => 0);
    expect(judgeMemory(go((t) => 50 + Math.min(10, after(t))), 120)).toMatchObject({ liveHeapGrowth: null, lateGrowth: 1, ok: true });
    expect(judgeMemory(go((t) => 50 + 0.2 * after(t)), 120).ok).toBe(false);
  });

  it('judges recorded soaks: every server passes, where the +20 % rule failed three of the six', () => {
    const readings = (rows: readonly Reading[]) =>
      rows.map(([t, rss, heapTotal, heapUsed, external]) => ({ t, rssBytes: rss * MiB, heapTotalBytes: heapTotal * MiB, heapUsedBytes: heapUsed * MiB, externalBytes: external * MiB }));
    const judge = (run: Record<'server-a' | 'server-b', readonly Reading[]>, durationS: number) =>
      judgeSoak([load(0)], { 'server-a': readings(run['server-a']), 'server-b': readings(run['server-b']) }, durationS);
    const node24 = judge(node24Soak180, 180);
    const node24Default = judge(node24Soak120, 120);
    const node20 = judge(node20Soak180, 180);
    for (const verdict of [node24, node24Default, node20]) expect(verdict).toMatchObject({ rssJudged: true, rssOk: true });
    // Node 24's server-b: 212 → 294 MiB, all in the first ~35 s; Node 20's: 117 → 173 MiB, up and down.
    expect(node24.rssGrowth['server-b']).toBeGreaterThan(MAX_RSS_GROWTH);
    expect(node20.rssGrowth['server-b']).toBeGreaterThan(MAX_RSS_GROWTH);
    // server-a at 6,000 calls/s: RSS +28 % as V8 reserved 68 → 104 MiB of heap, its floor unmoved.
    expect(node24Default.rssGrowth['server-a']).toBeGreaterThan(MAX_RSS_GROWTH);
    expect(node24Default.memory!['server-a'].lateGrowth).toBeGreaterThan(1.1);
    expect(node24Default.memory!['server-a'].liveHeapGrowth).toBeLessThanOrEqual(0);
  });

  it('does not judge memory over a few seconds of load', () => {
    const quick = series(2, (t) => 100 + 25 * Math.max(0, t));
    expect(judgeSoak([load(0)], { a: quick }, 2)).toMatchObject({ rssJudged: false, rssOk: true });
  });

  it('renders results.md and report.html from the document alone, and fails the run on errors or growth', () => {
    const settled = series(60, (t) => (t <= 0 ? 100 : 110));
    const growing = series(60, (t) => 100 + Math.max(0, t), () => 60, (t) => 40 + Math.max(0, t));
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
      settings: { durationS: 60, warmupS: 10, httpConcurrency: 100, grpcConcurrency: 50, rows: 1, startedAt: 'x', preset: 'default', cpuCount: 2, cores: '2 CPUs' },
      plan: {},
      results,
    };
    const md = renderSoakMarkdown(doc);
    expect(md).toContain('| a | 100.0 MiB | 110.0 MiB | 10.0% | 0.0% | +0.0% of RSS | +0.0% of RSS |');
    expect(md).toContain('Verdict: no errors; nothing retained (live heap and external memory each grew by less than 10% of RSS from the first half to the second).');
    // The readings every 10 s, from the warm-up's first (t = -10) to the last.
    expect(md).toContain('| -10 | 100.0 | 60.0 | 40.0 | 2.0 |');
    expect(md).toContain('| 60 | 110.0 | 60.0 | 40.0 | 2.0 |');
    const html = renderSoakHtml(doc);
    expect(html).toContain('data-section="memory"');
    expect(html).toContain('data-section="memory-series"');
    expect(soakFailure(results)).toBeNull();
    const failed = { ...results, loads: [load(3)], memory: { a: growing }, verdict: judgeSoak([load(3)], { a: growing }, 60) };
    expect(soakFailure(failed)).toBe('3 call(s) failed; memory retained: a server grew from the first half to the second');
    expect(renderSoakMarkdown({ ...doc, results: failed })).toContain('memory RETAINED');
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
      settings: { durationS: 60, warmupS: 10, httpConcurrency: 100, grpcConcurrency: 50, rows: 1, startedAt: 'x', preset: 'default', cpuCount: 2, cores: '2 CPUs' },
      plan: {},
      results: old,
    });
    expect(md).toContain('| server-a | 143.3 MiB | 180.6 MiB | 26.0% | — | — | — |');
    expect(md).toContain('Verdict: no errors; RSS GREW too much.');
  });
});
