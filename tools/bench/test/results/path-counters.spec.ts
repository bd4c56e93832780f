import { renderCsv } from '../../src/export/csv';
import { renderReport } from '../../src/export/html/report';
import { renderMarkdown } from '../../src/export/markdown';
import { mergeVisits } from '../../src/measure/visits';
import { addPathCounters, NO_PATH_COUNTERS, pathCounterRows, pathCountersBetween, type PathCounters } from '../../src/results/path-counters';
import type { RawResult, RunDocument } from '../../src/results/model';
import { caseResult } from '../case-result';

// A path profile's counters per cell (issue #34): the DNS server's queries, the sidecars' requests, connections and CPU.
const counted: PathCounters = {
  dns: { queries: 8, lookups: 2, nxdomain: 4, byType: { A: 4, AAAA: 4 } },
  envoy: { client: { requests: 12, upstreamConnections: 0, cpuMs: 3 }, server: { requests: 12, upstreamConnections: 0, cpuMs: 1 } },
};
const meshed = caseResult({ network: 'region+names+mesh', case: '①-1', runs: 4, pathCounters: counted });
const doc = (results: RunDocument['results']): RunDocument => ({ schemaVersion: 3, incomplete: false, provenance: {}, settings: { startedAt: 'now', profile: 'test' }, results });

describe("a path profile's counters per cell", () => {
  it('are differences of running totals, and add up (a part the path lacks stays null)', () => {
    const before: PathCounters = { dns: { queries: 2, lookups: 1, nxdomain: 1, byType: { A: 1, AAAA: 1 } }, envoy: null };
    const after: PathCounters = { dns: { queries: 6, lookups: 2, nxdomain: 3, byType: { A: 3, AAAA: 3 } }, envoy: null };
    const between = pathCountersBetween(before, after);
    expect(between).toEqual({ dns: { queries: 4, lookups: 1, nxdomain: 2, byType: { A: 2, AAAA: 2 } }, envoy: null });
    expect(addPathCounters(NO_PATH_COUNTERS, between)).toEqual(between);
    expect(addPathCounters(between, between).dns).toEqual({ queries: 8, lookups: 2, nxdomain: 4, byType: { A: 4, AAAA: 4 } });
  });

  it('are per timed call in the rows, keyed by the path profile’s name; failed cells and cells without a path have none', () => {
    expect(pathCounterRows([meshed, caseResult(), { ...meshed, ok: false }])).toEqual([
      { network: 'region+names+mesh', variant: 'blog', case: '①-1', transport: 'json', calls: 4, dnsQueriesPerCall: 2, lookupsPerCall: 0.5, sidecarRequestsPerCall: 3, upstreamConnections: 0, sidecarCpuUsPerCall: 1000 },
    ]);
  });

  it('add up over a cell’s visits, and are unknown once a visit’s are', () => {
    const raw = (pathCounters: PathCounters | null): RawResult => ({ ...meshed, measurement: null, error: null, failure: null, machineProbeMs: null, sampleOrder: [], startedAt: 'now', wallMs: 1, blogMs: null, pathCounters }) as unknown as RawResult;
    expect(mergeVisits(raw(counted), raw(counted), 1).pathCounters?.envoy?.client.requests).toBe(24);
    expect(mergeVisits(raw(counted), raw(null), 1).pathCounters).toBeNull();
  });

  it('are shown in results.md, report.html and the CSV, and nowhere without a path profile', () => {
    expect(renderMarkdown(doc([meshed]))).toMatch(/## The production path per cell[^\n]*\n[\s\S]*\| region\+names\+mesh \| blog \| ①-1 \| json \| 4 \| 2\.00 \| 0\.50 \| 3\.00 \| 0 \| 1000 \|/);
    expect(renderReport(doc([meshed]))).toContain('data-table="path-counters"');
    const [header, ...rows] = renderCsv([meshed]).trim().split('\n');
    const summary = rows.map((row) => row.split(',')).find((cells) => cells[0] === 'summary')!;
    const column = (name: string) => summary[header.split(',').indexOf(name)];
    expect([column('dns_queries'), column('dns_lookups'), column('sidecar_requests'), column('sidecar_upstream_connections'), column('sidecar_cpu_ms')]).toEqual(['8', '2', '12', '0', '4']);
    expect(renderMarkdown(doc([caseResult()]))).not.toContain('The production path per cell');
    expect(renderReport(doc([caseResult()]))).not.toContain('data-table="path-counters"');
  });
});
