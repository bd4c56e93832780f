import { renderCsv } from '../../src/export/csv';
import { renderReport } from '../../src/export/html/report';
import { renderMarkdown } from '../../src/export/markdown';
import { mergeVisits } from '../../src/measure/visits';
import { failureSummary } from '../../src/measure/failures';
import { addPathCounters, NO_PATH_COUNTERS, pathCountersBetween, type PathCounters, type TcpCounters } from '../../src/model/path-counters';
import { failedCellText, pathCounterRows, tcpCounterRows } from '../../src/analysis/path-counter-rows';
import { describeListenQueue } from '../../src/model/format';
import type { RawResult, RunDocument } from '../../src/model/model';
import { handMadeCell } from '../hand-made-cell';

// A path profile's counters per cell (issue #34): the DNS server's queries, the sidecars' requests, connections and CPU.
const counted: PathCounters = {
  dns: { queries: 8, lookups: 2, nxdomain: 4, byType: { A: 4, AAAA: 4 } },
  envoy: { client: { requests: 12, upstreamConnections: 0, cpuMs: 3 }, server: { requests: 12, upstreamConnections: 0, cpuMs: 1 } },
};
const meshed = handMadeCell({ network: 'region+names+mesh', case: '①-1', runs: 4, pathCounters: counted });
const doc = (results: RunDocument['results']): RunDocument => ({ schemaVersion: 3, incomplete: false, provenance: {}, settings: { startedAt: 'now', preset: 'test' }, results });

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
    expect(pathCounterRows([meshed, handMadeCell(), { ...meshed, ok: false }])).toEqual([
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
    expect(renderMarkdown(doc([handMadeCell()]))).not.toContain('The production path per cell');
    expect(renderReport(doc([handMadeCell()]))).not.toContain('data-table="path-counters"');
  });
});

// The server namespace's TCP counters per cell (issue #34's `read ECONNRESET`): its listen queue, SYN cookies and resets.
const quiet: TcpCounters = { listenOverflows: 0, listenDrops: 0, syncookiesSent: 0, syncookiesRecv: 0, syncookiesFailed: 0, outRsts: 0, estabResets: 0, abortOnData: 0, abortOnClose: 0 };
const burst: TcpCounters = { ...quiet, listenOverflows: 3702, listenDrops: 3702, syncookiesSent: 1201, syncookiesRecv: 845, syncookiesFailed: 106, outRsts: 212 };
const onStage = (tcp: TcpCounters | null, overrides: Parameters<typeof handMadeCell>[0] = {}) =>
  handMadeCell({ network: 'region', security: 'mtls', case: '②-3', rows: 1, requests: 1000, runs: 5, pathCounters: { dns: null, envoy: null, tcp }, ...overrides });
const reset = onStage(burst, { ok: false, runs: 0, summary: null, samplesMs: [], error: 'HTTP 502: timed call failed: read ECONNRESET' });

describe("the server namespace's TCP counters per cell", () => {
  it('subtract and add field by field; a part read on one side only is unknown, and documents without it stay without it', () => {
    const before: PathCounters = { dns: null, envoy: null, tcp: quiet };
    const after: PathCounters = { dns: null, envoy: null, tcp: burst };
    expect(pathCountersBetween(before, after).tcp).toEqual(burst);
    expect(addPathCounters(pathCountersBetween(before, after), { dns: null, envoy: null, tcp: { ...quiet, listenOverflows: 1 } }).tcp?.listenOverflows).toBe(3703);
    expect(addPathCounters(NO_PATH_COUNTERS, after)).toEqual(after);
    expect(pathCountersBetween(before, { dns: null, envoy: null, tcp: null }).tcp).toBeNull();
    expect('tcp' in pathCountersBetween(counted, counted)).toBe(false);
    expect('tcp' in addPathCounters(counted, counted)).toBe(false);
  });

  it('say in words what the listen queue did, and nothing when it neither overflowed nor failed a cookie', () => {
    expect(describeListenQueue(burst)).toBe("server's listen queue overflowed 3,702 times, 106 SYN-cookie checks failed (each answered with a reset)");
    expect(describeListenQueue({ ...quiet, listenOverflows: 1 })).toBe("server's listen queue overflowed 1 time");
    expect(describeListenQueue({ ...quiet, syncookiesFailed: 1 })).toBe('1 SYN-cookie check failed (each answered with a reset)');
    expect(describeListenQueue({ ...quiet, outRsts: 40 })).toBeNull();
    expect(describeListenQueue(null)).toBeNull();
    expect(describeListenQueue(undefined)).toBeNull();
  });

  it("make a failed cell's error explain itself, in the table, report.html and the run's last lines", () => {
    const text = "HTTP 502: timed call failed: read ECONNRESET — server's listen queue overflowed 3,702 times, 106 SYN-cookie checks failed (each answered with a reset)";
    expect(failedCellText(reset)).toBe(text);
    expect(failedCellText({ error: 'boom', pathCounters: { dns: null, envoy: null, tcp: quiet } })).toBe('boom');
    expect(failedCellText({ error: null })).toBe('unknown error');
    expect(renderMarkdown(doc([reset]))).toContain(`FAILED: ${text}`);
    expect(renderReport(doc([reset]))).toContain(`<strong>FAILED</strong>: HTTP 502: timed call failed: read ECONNRESET — server&#39;s listen queue overflowed 3,702 times`);
    expect(failureSummary([{ ...reset, failure: { kind: 'call', message: 'HTTP 502: timed call failed: read ECONNRESET' } }])).toBe(
      "bench: 1 of 1 cells failed: blog ②-3 json (call: HTTP 502: timed call failed: read ECONNRESET — server's listen queue overflowed 3,702 times, 106 SYN-cookie checks failed (each answered with a reset))",
    );
  });

  it('get a row per cell, ok or failed, with what the cell recorded (– where a counter is from after its run); none in the production path table', () => {
    const overflowedOk = onStage({ ...quiet, listenOverflows: 3258, listenDrops: 3258, syncookiesSent: 171 }, { transport: 'proto-h1', security: 'plain' });
    const rows = tcpCounterRows([reset, overflowedOk, onStage(quiet, { transport: 'grpc' }), handMadeCell()]);
    expect(rows.map((r) => [r.network, r.transport, r.ok, r.tcp?.listenOverflows ?? null, r.host])).toEqual([
      ['region · mtls', 'json', false, 3702, false],
      ['region · plain', 'proto-h1', true, 3258, false],
      ['region · mtls', 'grpc', true, 0, false],
      ['loopback · plain', 'json', true, null, true],
    ]);
    expect(pathCounterRows([reset, overflowedOk])).toEqual([]);
  });

  it('are shown in results.md, report.html and the CSV, quiet cells too', () => {
    const overflowedOk = onStage({ ...quiet, listenOverflows: 3258, listenDrops: 3258, syncookiesSent: 171 }, { transport: 'proto-h1' });
    const md = renderMarkdown(doc([reset, overflowedOk]));
    expect(md).toContain('## Modes and kernel TCP counters per cell');
    expect(md).toContain('| blog | ②-3 | json | region · mtls | – | calls up to the failure | 3,702 | 3,702 | – | – | – | 1,201 | 845 | 106 | 212 | 0 | – | – | – |');
    expect(md).toContain('| blog | ②-3 | proto-h1 | region · mtls | one mode | 5 timed calls | 3,258 | 3,258 | – | – | – | 171 | 0 | 0 | 0 | 0 | – | – | – |');
    expect(renderReport(doc([reset, overflowedOk]))).toMatch(/data-table="cell-counters"[\s\S]*data-ok="false"/);
    const [header, ...lines] = renderCsv([reset]).trim().split('\n');
    const summary = lines.map((row) => row.split(',')).find((cells) => cells[0] === 'summary')!;
    const column = (name: string) => summary[header.split(',').indexOf(name)];
    expect(['tcp_listen_overflows', 'tcp_listen_drops', 'tcp_syncookies_sent', 'tcp_syncookies_failed', 'tcp_out_rsts', 'tcp_estab_resets'].map(column)).toEqual(['3702', '3702', '1201', '106', '212', '0']);
    const calm = doc([onStage(quiet)]);
    expect(renderMarkdown(calm)).toContain('| blog | ②-3 | json | region · mtls | one mode | 5 timed calls | 0 | 0 |');
    expect(renderReport(calm)).toContain('data-table="cell-counters"');
  });
});
