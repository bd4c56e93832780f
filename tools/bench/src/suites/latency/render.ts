// bench:latency's Markdown and HTML, from results.json alone (pure).
import { count, ms, presetOf } from '../../model';
import { renderPercentileChart, renderBarChart } from '../../export';
import type { SuiteDocument } from '../common/document';
import { renderSuitePage } from '../common/page';
import { htmlTable, markdownTable, type Table } from '../common/tables';
import { firstCallMedian, type LatencyCell, type LatencyResults, type LatencySettings } from './measure';
import { LATENCY_PUBLISHED } from './transports';
import { describeFailure } from '../../measure';

export type LatencyDocument = SuiteDocument<LatencySettings, LatencyResults>;

export const LATENCY_PUBLISHED_TEXT = [
  `Production migration (Ruby, Kubernetes + Envoy), 100 sequential calls of a trivial method: gRPC mean ${LATENCY_PUBLISHED.grpc.meanMs} ms vs HTTP/1.1 + protobuf ${LATENCY_PUBLISHED.http.meanMs} ms (4×); p95 ${LATENCY_PUBLISHED.grpc.p95Ms} ms vs ${LATENCY_PUBLISHED.http.p95Ms} ms (7×); gRPC p99 near ${LATENCY_PUBLISHED.grpc.p99Ms} ms.`,
  'Their explanation: the body format did not change, so the gain came from HTTP/2 — one long-lived connection instead of a connection set-up per request; HTTP/1.1 with keep-alive measured noticeably better than without.',
];

const times = (value: number | undefined, base: number | undefined) => (value === undefined || !base ? '—' : `${(value / base).toFixed(2)}×`);

function table(cells: readonly LatencyCell[]): Table {
  const grpc = cells.find((c) => c.transport === 'grpc');
  return {
    header: ['transport', 'calls', 'mean ms', 'p50 ms', 'p90 ms', 'p95 ms', 'p99 ms', 'max ms', 'mean ÷ gRPC', 'p95 ÷ gRPC', 'first call ms', 'connect ms', 'connect share'],
    numeric: [false, true, true, true, true, true, true, true, true, true, true, true, true],
    rows: cells.map((c) => [
      c.transport,
      count(c.latency.n),
      ms(c.latency.meanMs),
      ms(c.latency.p50Ms),
      ms(c.latency.p90Ms),
      ms(c.latency.p95Ms),
      ms(c.latency.p99Ms),
      ms(c.latency.maxMs),
      times(c.latency.meanMs, grpc?.latency.meanMs),
      times(c.latency.p95Ms, grpc?.latency.p95Ms),
      ms(firstCallMedian(c)),
      c.connect ? ms(c.connect.meanMs) : '—',
      c.connect ? `${Math.round(100 * c.connect.shareOfMean)}%` : '—',
    ]),
  };
}

const perCall = (total: number, calls: number, digits = 2) => (calls ? (total / calls).toFixed(digits) : '—');

/** Across a path: each call's predicted round trips against what it took, and what the DNS server and the sidecars counted. */
function pathTable(cells: readonly LatencyCell[]): Table | null {
  if (!cells.some((c) => c.path && c.predicted)) return null;
  return {
    header: ['transport', `round trips predicted (lookup + TCP + ${cells.some((c) => c.predicted?.roundTrips.tls !== undefined) ? 'TLS + ' : ''}request)`, 'predicted ms', 'mean ms', 'mean ÷ predicted', 'DNS queries / call', 'lookups / call', 'sidecar requests / call', 'sidecar upstream connections', 'sidecar CPU µs / call'],
    numeric: [false, false, true, true, true, true, true, true, true, true],
    rows: cells.map((c) => {
      const rt = c.predicted?.roundTrips;
      const counters = c.path?.counters;
      const calls = c.path?.calls ?? 0;
      const envoy = counters?.envoy;
      return [
        c.transport,
        rt ? `${rt.total} (${[rt.lookup, rt.tcp, ...(rt.tls === undefined ? [] : [rt.tls]), rt.request].join(' + ')})` : '—',
        c.predicted ? ms(c.predicted.ms) : '—',
        ms(c.latency.meanMs),
        c.predicted ? `${(c.latency.meanMs / c.predicted.ms).toFixed(2)}×` : '—',
        counters?.dns ? perCall(counters.dns.queries, calls) : '—',
        counters?.dns ? perCall(counters.dns.lookups, calls) : '—',
        envoy ? perCall(envoy.client.requests, calls) : '—',
        envoy ? count(envoy.client.upstreamConnections) : '—',
        envoy ? perCall(1000 * (envoy.client.cpuMs + envoy.server.cpuMs), calls, 0) : '—',
      ];
    }),
  };
}

const PATH_NOTE =
  'Predicted: the round trips one call should take on this path (a name lookup tries each search domain until one answers, A and AAAA together; a new connection costs a TCP handshake unless a sidecar holds it on loopback and pools its own; then the request), times the calibrated RTT. DNS queries are counted at the DNS server, sidecar requests and upstream connections from the client Envoy\'s stats, sidecar CPU from both Envoys\' threads (/proc/<pid>/task/*/schedstat), all over the timed calls.';

/** The sentence the README quotes: the migration's "before" (protobuf, new connection) against gRPC. */
export function latencyVerdict(cells: readonly LatencyCell[]): string {
  const grpc = cells.find((c) => c.transport === 'grpc');
  const before = cells.find((c) => c.transport === 'protobuf-new-connection');
  const kept = cells.find((c) => c.transport === 'protobuf-keepalive');
  if (!grpc || !before) return 'The gRPC or the HTTP/1.1 new-connection cell is missing.';
  return (
    `HTTP/1.1 + protobuf with a new connection per call: mean ${times(before.latency.meanMs, grpc.latency.meanMs)} and p95 ${times(before.latency.p95Ms, grpc.latency.p95Ms)} gRPC's (published 4× and 7×)` +
    (before.predicted && grpc.predicted ? `; the round trips predict ${times(before.predicted.ms, grpc.predicted.ms)} (${before.predicted.roundTrips.total} against ${grpc.predicted.roundTrips.total})` : '') +
    (kept ? `; with keep-alive: mean ${times(kept.latency.meanMs, grpc.latency.meanMs)}, p95 ${times(kept.latency.p95Ms, grpc.latency.p95Ms)}.` : '.')
  );
}

export function renderLatencyMarkdown(doc: LatencyDocument): string {
  const s = doc.settings;
  return [
    `# bench:latency (experiment §2): ${s.startedAt} (preset ${presetOf(s)})`,
    '',
    `${s.calls} sequential calls of a trivial method (return the id) per transport and round, ${s.rounds} round(s) in rotating order, after one first call on a new client and ${s.warmup} warm-up calls. Percentiles pool every timed call. ${s.cores}.`,
    '',
    markdownTable(table(doc.results.cells)),
    '',
    latencyVerdict(doc.results.cells),
    '',
    ...(() => {
      const t = pathTable(doc.results.cells);
      return t ? [`Across the path \`${s.network}\`:`, '', markdownTable(t), '', PATH_NOTE, ''] : [];
    })(),
    '"first call" is the median over rounds of the first call on a brand-new client (connection set-up included); "connect" is the TCP connect time of timed calls that opened a connection, and its share of their mean latency. On loopback a connection costs a fraction of a millisecond; across hosts (DNS, a round trip or more for TCP, Envoy in between) it is what the migration measured.',
    '',
    ...doc.results.failures.map((f) => `- FAILED ${f.transport} round ${f.round + 1}: ${describeFailure(f.failure)}`),
    'Published (experiments.md §2):',
    '',
    ...LATENCY_PUBLISHED_TEXT.map((p) => `- ${p}`),
    '',
  ].join('\n');
}

export function renderLatencyHtml(doc: LatencyDocument): string {
  const cells = doc.results.cells;
  const s = doc.settings;
  const ids = cells.map((c) => c.transport);
  const curve = renderPercentileChart({
    kind: 'percentiles',
    endLabels: false,
    caseId: 'latency by percentile',
    subheading: `${s.calls} calls × ${s.rounds} round(s) per transport`,
    label: 'latency of a trivial call by percentile, per transport',
    series: cells.map((c) => ({ transport: c.transport, samplesMs: c.curveMs })),
  });
  const bars = (kind: string, caseId: string, pick: (c: LatencyCell) => number, published?: (c: LatencyCell) => number | undefined) =>
    renderBarChart({
      kind,
      caseId,
      subheading: 'per transport',
      label: `${caseId} per transport`,
      unit: 'ms',
      groups: [
        {
          label: '',
          bars: cells.map((c) => {
            const p = published?.(c);
            return {
              transport: c.transport,
              value: pick(c),
              valueLabel: ms(pick(c)),
              tooltip: `${c.transport}: ${ms(pick(c))} ms`,
              marker: p !== undefined ? { value: p, tooltip: `published: ${p} ms (across hosts, through Envoy)` } : null,
            };
          }),
        },
      ],
    });
  return renderSuitePage(doc, {
    title: 'bench:latency — gRPC vs HTTP/1.1, with and without keep-alive (experiment §2)',
    summary: `Sequential calls of a method that returns the id it is given, so the transport is all there is to measure. ${latencyVerdict(cells)}`,
    published: LATENCY_PUBLISHED_TEXT,
    sections: [
      {
        id: 'distribution',
        heading: 'Latency by percentile',
        intro: 'Every timed call, sorted: x is the percentile, y the time of one call — the migration’s plot. A line that climbs at the right has a slow tail.',
        legend: { ids, marks: 'lines' },
        charts: [curve],
        table: htmlTable(table(cells)),
      },
      ...(() => {
        const t = pathTable(cells);
        return t ? [{ id: 'path', heading: `Round trips per call across ${s.network}: predicted and measured`, intro: PATH_NOTE, charts: [], table: htmlTable(t) }] : [];
      })(),
      {
        id: 'summary',
        heading: 'Mean, p95 and the first call',
        intro: 'The mean and p95 of the timed calls, and the first call on a new client (connection set-up included). The published figures were measured across hosts through Envoy sidecars, where a connection costs far more than on loopback; they are drawn for scale only beside the gRPC and new-connection protobuf bars.',
        legend: { ids, marks: 'bars', published: true },
        charts: [
          bars('latency-mean', 'mean', (c) => c.latency.meanMs, (c) => (c.transport === 'grpc' ? LATENCY_PUBLISHED.grpc.meanMs : c.transport === 'protobuf-new-connection' ? LATENCY_PUBLISHED.http.meanMs : undefined)),
          bars('latency-p95', 'p95', (c) => c.latency.p95Ms, (c) => (c.transport === 'grpc' ? LATENCY_PUBLISHED.grpc.p95Ms : c.transport === 'protobuf-new-connection' ? LATENCY_PUBLISHED.http.p95Ms : undefined)),
          bars('latency-first', 'first call', firstCallMedian),
        ],
      },
    ],
  });
}
