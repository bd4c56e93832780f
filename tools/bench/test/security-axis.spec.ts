import { parseOptions, UsageError } from '../src/plan/options';
import { appSetKey, planVisits } from '../src/plan/plan';
import { cellKey, findCell, securityOf, toCell } from '../src/model/results';
import { verdict } from '../src/analysis/verdict';
import { decisionMap } from '../src/analysis/decision-map';
import { renderMarkdown } from '../src/export/markdown';
import { renderCsv } from '../src/export/csv';
import { renderReport } from '../src/export/html/report';
import { compareKit } from '../src/compare/compare';
import type { RunDocument } from '../src/model/model';
import { handMadeCell } from './hand-made-cell';

// --security as an axis like --network and --node: its records, the plan, the cells' key and every export.
describe('--security', () => {
  it('defaults to plain and takes the records of libs/config in their order', () => {
    expect(parseOptions([], '/work').securities.map((s) => s.name)).toEqual(['plain']);
    expect(parseOptions(['--security', 'mtls,plain,tls'], '/work').securities.map((s) => s.name)).toEqual(['plain', 'tls', 'mtls']);
  });

  it('refuses an unknown mode, and TLS against a client it did not start', () => {
    expect(() => parseOptions(['--security', 'ssl'], '/work')).toThrow(new UsageError('--security: unknown "ssl"; known: plain, tls, mtls'));
    expect(() => parseOptions(['--security', 'tls', '--client-url', 'http://127.0.0.1:3000', '--forks', '0'], '/work')).toThrow(/with --client-url the apps are yours/);
  });

  it('plans every case once per mode, each mode on apps of its own', () => {
    const plan = planVisits(parseOptions(['--security', 'plain,tls', '--cases', '1-1', '--forks', '0', '--visits', '1', '--runs', '2'], '/work'));
    expect(plan.map((p) => p.security)).toEqual(['plain', 'tls']);
    expect(new Set(plan.map(appSetKey)).size).toBe(2);
  });

  const plain = handMadeCell({ security: 'plain', transport: 'json', samplesMs: [10, 10, 10], summary: null });
  const results = ['plain', 'tls'].flatMap((security, i) =>
    (['json', 'grpc'] as const).map((transport, j) => {
      const samples = [10 + i + j, 11 + i + j, 12 + i + j];
      return handMadeCell({ security, transport, samplesMs: samples, summary: toCell({ network: 'loopback', runtime: '24', security, variant: 'blog', case: '①-2', transport, rows: 1, requests: 1, warmup: 0, runs: 3, blogMs: null, startedAt: '', wallMs: 1, machineProbeMs: null, measurement: { coldMs: 1, warmupMs: [], samplesMs: samples, bytesPerResponse: null, rowsPerCall: 1, phases: null, client: null, server: null, serverMetricsError: null }, sampleOrder: [], error: null, failure: null }).summary });
    }),
  );

  it('keys every cell: a TLS cell is never the plain one, and a cell from before --security is plain', () => {
    expect(cellKey(results[0])).not.toBe(cellKey(results[2]));
    expect(findCell(results, { ...results[2], security: 'tls' })).toBe(results[2]);
    const legacy = { ...plain };
    delete legacy.security;
    expect(securityOf(legacy)).toBe('plain');
    expect(cellKey(legacy)).toBe(cellKey(plain));
  });

  it('gives the verdict, the decision map, the table, the CSV and a TLS section a security label', () => {
    const v = verdict(results);
    expect(v.bySecurity).toBe(true);
    expect(v.rows.map((r) => r.security)).toEqual(['plain', 'tls']);
    expect(decisionMap(results)?.columns.map((c) => c.label)).toEqual(['plain', 'tls']);
    const tls = { cold: { count: 2, resumed: 1, meanMs: 1.5, maxMs: 1.5, protocol: 'TLSv1.3', alpn: 'h2' }, timed: null };
    const doc: RunDocument = { schemaVersion: 3, incomplete: false, provenance: {}, settings: {} as RunDocument['settings'], results: results.map((r) => (r.security === 'tls' ? { ...r, tls } : r)) };
    const md = renderMarkdown(doc);
    expect(md).toContain('| security |');
    expect(md).toContain('## TLS: the handshakes behind each cell');
    expect(md).toMatch(/TLSv1\.3 h2 \|/);
    // Whether the cold call's new connections resumed a kept session (tls-session-reuse), per cell.
    expect(md).toMatch(/\| 2 × [\d.]+ \(max [\d.]+; 1 resumed\) \|/);
    expect(renderReport(doc)).toMatch(/<section id="tls" data-section="tls">.*TLSv1\.3 h2/s);
    expect(renderCsv(results).split('\n').filter((l) => l.startsWith('summary,')).map((l) => l.split(',')[3])).toEqual(['plain', 'plain', 'tls', 'tls']);
  });

  it('pairs cells by security when comparing two runs', () => {
    const kit = compareKit();
    const rows = kit.compareRuns({ results: results.map((r) => ({ ...r })) }, { results: [...results].reverse() });
    expect(rows.map((r) => `${r.security} ${r.transport}`).sort()).toEqual(['plain grpc', 'plain json', 'tls grpc', 'tls json']);
    for (const row of rows) expect(row.ratio).toBe(1);
  });
});
