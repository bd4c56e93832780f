import { renderCsv } from '../src/export/csv';
import type { CaseResult } from '../src/model';
import { summarize } from '../src/stats';

const base: CaseResult = {
  variant: 'blog',
  case: '①-2',
  transport: 'json',
  rows: 10_000,
  requests: 1,
  warmup: 1,
  runs: 3,
  samplesMs: [40, 50, 60],
  warmupMs: [70],
  coldMs: 80,
  bytes: 2_548_000,
  bytesPerCall: 2_548_000,
  rowsPerCall: 10_000,
  sampleOrder: [0, 2, 4],
  ok: true,
  error: null,
  summary: summarize([40, 50, 60]),
  blogMs: 47.22,
  client: { cpuUserMs: 10, cpuSystemMs: 2, peakRssBytes: 1000 },
  server: null,
  phases: null,
  startedAt: '2026-11-21T00:00:00.000Z',
  wallMs: 300,
};

describe('renderCsv', () => {
  const failed: CaseResult = { ...base, transport: 'grpc', ok: false, error: 'HTTP 502: "bad", really', samplesMs: [], sampleOrder: [], summary: null, client: null };
  const lines = renderCsv([base, failed]).trimEnd().split('\n');

  it('has a header, one row per sample and one summary row per cell', () => {
    expect(lines[0].split(',').slice(0, 8)).toEqual(['row_type', 'case', 'transport', 'rows', 'requests', 'sample_index', 'sample_order', 'ms']);
    expect(lines.filter((l) => l.startsWith('sample,'))).toEqual(['sample,①-2,json,10000,1,0,0,40' + ','.repeat(22), 'sample,①-2,json,10000,1,1,2,50' + ','.repeat(22), 'sample,①-2,json,10000,1,2,4,60' + ','.repeat(22)]);
    expect(lines.filter((l) => l.startsWith('summary,'))).toHaveLength(2);
  });

  it('writes the summary figures and quotes errors', () => {
    const header = lines[0].split(',');
    const summary = lines[4].split(',');
    const get = (name: string) => summary[header.indexOf(name)];
    expect([get('n'), get('median_ms'), get('noisy'), get('client_cpu_ms'), get('server_cpu_ms'), get('ok')]).toEqual(['3', '50', 'true', '12', '', 'true']);
    expect(lines[5]).toMatch(/,false,"HTTP 502: ""bad"", really"$/);
  });
});
