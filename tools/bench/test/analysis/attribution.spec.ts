import { attribution, FACTORS } from '../../src/analysis/attribution';
import { renderAttributionSection } from '../../src/export/attribution';
import { renderAttributionSection as renderAttributionHtml } from '../../src/export/html/attribution';
import type { Cell, Transport } from '../../src/model/model';
import { ratioOfMediansCi, summarize } from '../../src/model/stats';

/** A cell whose timed calls are `median` ms ± a little, deterministic. */
function cell(transport: Transport, median: number, extra: Partial<Cell> = {}): Cell {
  const samplesMs = Array.from({ length: 20 }, (_, i) => median * (1 + ((i % 5) - 2) * 0.02));
  return {
    variant: 'tuned',
    case: '①-2',
    transport,
    rows: 10_000,
    requests: 1,
    warmup: 0,
    runs: samplesMs.length,
    blogMs: null,
    samplesMs,
    warmupMs: [],
    coldMs: null,
    bytes: null,
    bytesPerCall: null,
    rowsPerCall: 10_000,
    sampleOrder: samplesMs.map((_, i) => i),
    ok: true,
    error: null,
    summary: summarize(samplesMs),
    client: null,
    server: null,
    phases: null,
    startedAt: '2026-11-24T11:00:00Z',
    wallMs: 1,
    machineProbeMs: null,
    ...extra,
  };
}

describe('ratioOfMediansCi', () => {
  it('brackets the ratio of the medians, and says the same every time (seeded)', () => {
    const a = Array.from({ length: 30 }, (_, i) => 20 + (i % 7));
    const b = Array.from({ length: 30 }, (_, i) => 10 + (i % 5));
    const ci = ratioOfMediansCi(a, b)!;
    expect(ci.low).toBeLessThan(23 / 12);
    expect(ci.high).toBeGreaterThan(23 / 12);
    expect(ratioOfMediansCi(a, b)).toEqual(ci);
  });

  it('gives no interval from fewer than 5 calls on either side', () => {
    expect(ratioOfMediansCi([1, 2, 3, 4], [1, 2, 3, 4, 5])).toBeNull();
  });
});

describe('attribution', () => {
  const run = [cell('json', 25), cell('grpc', 22), cell('json-h2', 26), cell('proto-h1', 40), cell('connect-grpc', 20)];

  it('computes each factor from the two cells that differ in one thing, with a CI', () => {
    const a = attribution(run);
    expect(a.rows).toHaveLength(1);
    const byId = Object.fromEntries(a.rows[0].factors.map((f) => [f.id, f]));
    expect(byId.protocol.ratio).toBeCloseTo(26 / 25, 6);
    expect(byId.codec.ratio).toBeCloseTo(40 / 25, 6);
    expect(byId.library.ratio).toBeCloseTo(22 / 20, 6);
    expect(byId.total.ratio).toBeCloseTo(22 / 25, 6);
    for (const f of a.rows[0].factors) expect(f.ci!.low).toBeLessThanOrEqual(f.ratio!);
    expect(a.unavailable).toEqual([]);
  });

  it('says which cell is missing or failed instead of a number', () => {
    const a = attribution([cell('json', 25), cell('grpc', 22), cell('proto-h1', 30, { ok: false, error: 'boom', summary: null })]);
    const byId = Object.fromEntries(a.rows[0].factors.map((f) => [f.id, f]));
    expect(byId.protocol).toMatchObject({ ratio: null, missing: 'json-h2 not measured' });
    expect(byId.codec).toMatchObject({ ratio: null, missing: 'proto-h1 failed' });
    expect(byId.library).toMatchObject({ ratio: null, missing: 'connect-grpc not measured' });
    expect(a.unavailable.map((u) => u.id)).toEqual(['protocol', 'codec', 'library']);
  });

  it('is empty for a run of the blog transports only, and then neither export prints a section', () => {
    const blogOnly = [cell('json', 25), cell('grpc', 22)];
    expect(attribution(blogOnly).rows).toEqual([]);
    expect(renderAttributionSection(attribution(blogOnly))).toEqual([]);
    expect(renderAttributionHtml(blogOnly)).toBe('');
  });

  it('keeps one row per variant, network and case; both exports print the same cells', () => {
    const two = [...run, ...run.map((c) => ({ ...c, network: 'region' }))];
    const a = attribution(two);
    expect(a.rows.map((r) => r.network)).toEqual(['loopback', 'region']);
    expect(a.byNetwork).toBe(true);
    const md = renderAttributionSection(a).join('\n');
    const html = renderAttributionHtml(two);
    for (const f of FACTORS) {
      expect(md).toContain(f.label);
      expect(html).toContain(f.label);
    }
    expect(md).toContain('1.04×');
    expect(html).toContain('1.04×');
  });

  it('prints the HTTP/2 windows each client session read back', () => {
    const windows = { streamBytes: 16 * 1024 * 1024, connectionBytes: 16 * 1024 * 1024 };
    const cells = run.map((c) => (c.transport === 'json-h2' ? { ...c, http2Windows: windows } : c));
    const line = 'json-h2 (tuned): stream 16.0 MiB, connection 16.0 MiB';
    expect(renderAttributionSection(attribution(cells), cells).join('\n')).toContain(line);
    expect(renderAttributionHtml(cells)).toContain(line);
  });
});
