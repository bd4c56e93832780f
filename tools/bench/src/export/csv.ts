import { type Cell, type NetworkRecord, type TcpCounters, networkOf, runtimeOf, securityOf, visitOfEachSample } from '../model';
import { cellModes, disturbedVisitsOf } from '../analysis';
import { BROKER_CSV_COLUMNS, brokerCsvColumns } from './brokers';

const COLUMNS = [
  'row_type',
  'network',
  'node',
  'security',
  'variant',
  'case',
  'transport',
  'rows',
  'requests',
  'sample_index',
  'sample_order',
  'visit',
  'fork',
  'ms',
  'n',
  'median_ms',
  'mean_ms',
  'min_ms',
  'max_ms',
  'p95_ms',
  'p99_ms',
  'stddev_ms',
  'cv',
  'median_ci_low_ms',
  'median_ci_high_ms',
  'outliers',
  'noisy',
  'cold_ms',
  'bytes',
  'client_cpu_ms',
  'client_peak_rss_bytes',
  'server_cpu_ms',
  'server_peak_rss_bytes',
  'client_gc_ms',
  'server_gc_ms',
  'delayer_cpu_ms',
  'delayer_packets',
  'receive_cpu_ms',
  'dns_queries',
  'dns_lookups',
  'sidecar_requests',
  'sidecar_upstream_connections',
  'sidecar_cpu_ms',
  'tcp_listen_overflows',
  'tcp_listen_drops',
  'tcp_syncookies_sent',
  'tcp_syncookies_failed',
  'tcp_out_rsts',
  'tcp_estab_resets',
  'tcp_syn_retrans',
  'tcp_timeouts',
  'tcp_retrans_segs',
  'tcp_syncookies_recv',
  'tcp_tw_recycled',
  'tcp_paws_active',
  'tcp_timewait_overflow',
  'modes',
  'mode_groups',
  'mode_note',
  'visits_recorded',
  'visits_disturbed',
  'outside_cpu_share_max',
  'steal_share_max',
  // The broker a transport goes through, and the CPU per 1,000 calls with it (export/brokers.ts).
  ...BROKER_CSV_COLUMNS,
  'blog_ms',
  'ok',
  'error',
] as const;

type Row = Partial<Record<(typeof COLUMNS)[number], string | number | boolean | null>>;

/** Each tcp_ column and its counter (model/path-counters.ts); a counter from after a document's run stays empty. */
const TCP_COLUMNS: Readonly<Record<string, keyof TcpCounters>> = {
  tcp_listen_overflows: 'listenOverflows',
  tcp_listen_drops: 'listenDrops',
  tcp_syncookies_sent: 'syncookiesSent',
  tcp_syncookies_failed: 'syncookiesFailed',
  tcp_out_rsts: 'outRsts',
  tcp_estab_resets: 'estabResets',
  tcp_syn_retrans: 'synRetrans',
  tcp_timeouts: 'timeouts',
  tcp_retrans_segs: 'retransSegs',
  tcp_syncookies_recv: 'syncookiesRecv',
  tcp_tw_recycled: 'twRecycled',
  tcp_paws_active: 'pawsActive',
  tcp_timewait_overflow: 'timeWaitOverflow',
};

function tcpColumns(r: Cell): Row {
  const tcp = r.pathCounters?.tcp;
  return Object.fromEntries(Object.entries(TCP_COLUMNS).map(([column, counter]) => [column, tcp?.[counter]]));
}

/** A cell's modes (analysis/modes.ts): how many groups, each as calls×centre ms, and the note. */
function modeColumns(r: Cell): Row {
  const m = cellModes(r);
  return m ? { modes: m.groups.length, mode_groups: m.groups.map((g) => `${g.calls}x${Math.round(g.centreMs * 1000) / 1000}`).join(' '), mode_note: m.note } : {};
}

/** A cell's visits with a disturbance reading, how many were disturbed, and the largest shares. */
function disturbanceColumns(r: Cell): Row {
  const read = (r.disturbance ?? []).filter((d) => d !== null);
  if (r.disturbance === undefined) return {};
  const max = (values: number[]) => (values.length ? Math.max(...values) : null);
  return { visits_recorded: read.length, visits_disturbed: disturbedVisitsOf(r).length, outside_cpu_share_max: max(read.map((d) => d.outsideShare)), steal_share_max: max(read.map((d) => d.stealShare)) };
}

/** RFC 4180 quoting: only when needed, doubling quotes. */
export function cell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * results.csv: one `sample` row per timed sample and one `summary` row per case × transport, in one
 * file with a `row_type` column, so a spreadsheet or pandas can filter either. `networks` (provenance.networks)
 * gives the broker hops' RTTs.
 */
export function renderCsv(results: readonly Cell[], networks?: Record<string, NetworkRecord>): string {
  const rows: Row[] = [];
  for (const r of results) {
    const key = { network: networkOf(r), node: runtimeOf(r), security: securityOf(r), variant: r.variant, case: r.case, transport: r.transport, rows: r.rows, requests: r.requests };
    // Empty visit and fork for a cell from before its visits were recorded.
    const visitOf = visitOfEachSample(r);
    r.samplesMs.forEach((ms, i) => rows.push({ row_type: 'sample', ...key, sample_index: i, sample_order: r.sampleOrder[i] ?? null, visit: visitOf?.[i].visit, fork: visitOf?.[i].fork, ms }));
    const s = r.summary;
    rows.push({
      row_type: 'summary',
      ...key,
      n: s?.n ?? 0,
      median_ms: s?.median,
      mean_ms: s?.mean,
      min_ms: s?.min,
      max_ms: s?.max,
      p95_ms: s?.p95,
      p99_ms: s?.p99,
      stddev_ms: s?.stddev,
      cv: s?.cv,
      median_ci_low_ms: s?.medianCi?.low,
      median_ci_high_ms: s?.medianCi?.high,
      outliers: s ? s.outliers.indices.length : null,
      noisy: s ? s.noisy : null,
      cold_ms: r.coldMs,
      bytes: r.bytes,
      client_cpu_ms: r.client ? r.client.cpuUserMs + r.client.cpuSystemMs : null,
      client_peak_rss_bytes: r.client?.peakRssBytes,
      server_cpu_ms: r.server ? r.server.cpuUserMs + r.server.cpuSystemMs : null,
      server_peak_rss_bytes: r.server?.peakRssBytes,
      // V8's GC pauses over the timed calls, as CPU (empty: a process that does not report them, e.g. Go's).
      client_gc_ms: r.client?.gcMs,
      server_gc_ms: r.server?.gcMs,
      delayer_cpu_ms: r.delayer?.cpuMs,
      delayer_packets: r.delayer?.packets,
      receive_cpu_ms: r.delayer?.receiveCpuMs,
      // Across a path profile: the DNS server's and the sidecars' counts over the timed calls (cells[].pathCounters).
      dns_queries: r.pathCounters?.dns?.queries,
      dns_lookups: r.pathCounters?.dns?.lookups,
      sidecar_requests: r.pathCounters?.envoy?.client.requests,
      sidecar_upstream_connections: r.pathCounters?.envoy?.client.upstreamConnections,
      sidecar_cpu_ms: r.pathCounters?.envoy ? Math.round((r.pathCounters.envoy.client.cpuMs + r.pathCounters.envoy.server.cpuMs) * 1000) / 1000 : null,
      // The TCP counters where the servers listen (cells[].pathCounters.tcp; on loopback the host's; a failed cell's up to its failure).
      ...tcpColumns(r),
      ...modeColumns(r),
      ...disturbanceColumns(r),
      ...brokerCsvColumns(r, networks),
      blog_ms: r.blogMs,
      ok: r.ok,
      error: r.error,
    });
  }
  return [COLUMNS.join(','), ...rows.map((row) => COLUMNS.map((c) => cell(row[c])).join(','))].join('\n') + '\n';
}
