import { renderMarkdown, renderTable } from '../../src/export/markdown';
import type { RunDocument } from '../../src/model/model';
import { handMadeCell } from '../hand-made-cell';
import { summarize } from '../../src/model/stats';

const result = handMadeCell;

const rows = [
  result({}),
  result({ transport: 'grpc', bytes: 1_350_000, blogMs: 94.66, samplesMs: [125, 124, 126, 125, 125, 124, 300], summary: summarize([125, 124, 126, 125, 125, 124, 300]) }),
  result({ case: '②-3', rows: 1, requests: 1000, transport: 'json', ok: false, error: 'HTTP 502: timed call failed | boom', summary: null, blogMs: 551.685 }),
];

describe('renderTable', () => {
  const table = renderTable(rows).split('\n');

  it('has the documented columns and one line per case × transport', () => {
    expect(table[0]).toBe(
      '| variant | case | rows | requests | transport | median ms | mean ms | min ms | p95 ms | max ms | stddev ms | CV | median 95% CI | cold ms | response bytes | blog avg ms | gRPC/JSON | blog gRPC/JSON |',
    );
    expect(table).toHaveLength(2 + rows.length);
  });

  it('shows figures, bytes, the blog figure and both ratios on the case\'s first line', () => {
    expect(table[2]).toBe('| blog | ①-2 | 10,000 | 1 | json | ~50.0 | 50.0 | 40.0 | 59.0 | 60.0 | 10.0 | 20.0% | — | 80.3 | 2.43 MiB | 47.2 | 2.50× | 2.00× |');
    expect(table[3]).toContain('| grpc | ~125.0 |');
    expect(table[3]).toContain('| 124.0–300.0 |');
    expect(table[3]).toMatch(/\| 94\.7 \| {2}\| {2}\|$/);
  });

  it('marks a failed case loudly and escapes pipes in the error', () => {
    expect(table[4]).toContain('FAILED: HTTP 502: timed call failed \\| boom');
  });
});

describe('renderMarkdown', () => {
  it('says how the run was made and flags failures and incompleteness', () => {
    const doc: RunDocument = {
      schemaVersion: 1,
      incomplete: true,
      provenance: { gitCommit: 'abcdef1234567890', gitDirty: false, client: { cpuModel: 'Test CPU', cpuCount: 2, node: 'v20.0.0', packages: { '@nestjs/core': '11.0.0' } } },
      settings: { startedAt: '2026-11-21T00:00:00.000Z', profile: 'quick', warmup: 1 },
      results: rows,
    };
    const md = renderMarkdown(doc);
    expect(md).toContain('commit `abcdef123456`');
    // A run from before settings.preset named it settings.profile: still read, printed as the preset.
    expect(md).toContain('preset `quick`');
    expect(md).toContain('Test CPU × 2; Node v20.0.0; @nestjs/core 11.0.0');
    expect(md).toContain('**incomplete run**');
    expect(md).toContain('**1 case(s) failed**');
    expect(md).toContain(renderTable(rows));
    expect(md).toContain('~ noisy: ①-2 json (CV 20% > 10%); ①-2 grpc (CV 44% > 10%)');
    expect(md).toContain('Outliers (modified z-score > 3.5 on the MAD; kept in every statistic): ①-2 grpc: 300.0 ms.');
    expect(md).toContain('not pinned');
    expect(md).not.toContain('machine probe');
  });

  it('gives the range of the machine probe over the run', () => {
    const probed = rows.map((r, i) => ({ ...r, machineProbeMs: { before: 6 + i, after: 6.5 + i } }));
    const md = renderMarkdown({ schemaVersion: 2, incomplete: false, provenance: {}, settings: {}, results: probed });
    expect(md).toContain(`machine probe (fixed CPU work in the bench, timed before and after each case; lower is faster): 6.000–${(6.5 + rows.length - 1).toFixed(3)} ms`);
  });
});
