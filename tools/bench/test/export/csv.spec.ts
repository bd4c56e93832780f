import { renderCsv } from '../../src/export/csv';
import { BROKER_CSV_COLUMNS } from '../../src/export/brokers';
import type { Cell } from '../../src/model/model';
import { handMadeCell } from '../hand-made-cell';

const base: Cell = handMadeCell({ coldMs: 80, client: { cpuUserMs: 10, cpuSystemMs: 2, peakRssBytes: 1000, gcMs: 1.5 } });

describe('renderCsv', () => {
  const failed: Cell = { ...base, transport: 'grpc', ok: false, error: 'HTTP 502: "bad", really', samplesMs: [], sampleOrder: [], summary: null, client: null };
  const lines = renderCsv([base, failed]).trimEnd().split('\n');

  it('has a header, one row per sample and one summary row per cell', () => {
    expect(lines[0].split(',').slice(0, 13)).toEqual(['row_type', 'network', 'node', 'security', 'variant', 'case', 'transport', 'rows', 'requests', 'sample_index', 'sample_order', 'visit', 'fork']);
    // A result from before --security is plain.
    // A sample row leaves every summary column empty (50, and the brokers' columns).
    const empty = ','.repeat(52 + BROKER_CSV_COLUMNS.length);
    // A cell from before its visits were recorded leaves visit and fork empty.
    expect(lines.filter((l) => l.startsWith('sample,'))).toEqual(['sample,loopback,24,plain,blog,①-2,json,10000,1,0,0,,,40' + empty, 'sample,loopback,24,plain,blog,①-2,json,10000,1,1,2,,,50' + empty, 'sample,loopback,24,plain,blog,①-2,json,10000,1,2,4,,,60' + empty]);
    // Each sample's visit and the set of apps that served it.
    const visited = renderCsv([{ ...base, visits: [{ visit: 1, fork: 1, calls: 2 }, { visit: 2, fork: 2, calls: 1 }] }]).split('\n').filter((l) => l.startsWith('sample,'));
    expect(visited.map((l) => l.split(',').slice(11, 14).join(','))).toEqual(['1,1,40', '1,1,50', '2,2,60']);
    expect(lines.filter((l) => l.startsWith('summary,'))).toHaveLength(2);
  });

  it('writes the summary figures and quotes errors', () => {
    const header = lines[0].split(',');
    const summary = lines[4].split(',');
    const get = (name: string) => summary[header.indexOf(name)];
    expect([get('n'), get('median_ms'), get('noisy'), get('client_cpu_ms'), get('server_cpu_ms'), get('client_gc_ms'), get('server_gc_ms'), get('ok')]).toEqual(['3', '50', 'true', '12', '', '1.5', '', 'true']);
    expect(lines[5]).toMatch(/,false,"HTTP 502: ""bad"", really"$/);
  });
});
