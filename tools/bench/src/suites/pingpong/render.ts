// bench:pingpong's Markdown and HTML, from results.json alone (pure).
import { bytes, count, ms, presetOf } from '../../model';
import { renderLogChart, renderPercentileChart } from '../../export';
import type { SuiteDocument } from '../common/document';
import { renderSuitePage } from '../common/page';
import { htmlTable, markdownTable, type Table } from '../common/tables';
import type { PingPongCell, PingPongResults, PingPongSettings } from './measure';
import { PINGPONG_PUBLISHED } from './plan';
import { describeFailure } from '../../measure';

export type PingPongDocument = SuiteDocument<PingPongSettings, PingPongResults>;

const perSecond = (value: number) => `${bytes(Math.round(value))}/s`;

function find(cells: readonly PingPongCell[], payload: string, transport: string): PingPongCell | undefined {
  return cells.find((c) => c.payload === payload && c.transport === transport);
}

function table(cells: readonly PingPongCell[]): Table {
  return {
    header: ['payload', 'transport', 'calls', 'calls/s', 'payload bytes/s', 'mean ms', 'p50 ms', 'p90 ms', 'p99 ms', 'p99.9 ms', 'max ms', 'p50 ÷ gRPC unary'],
    numeric: [false, false, true, true, true, true, true, true, true, true, true, true],
    rows: cells.map((c) => {
      const unary = find(cells, c.payload, 'grpc-unary');
      return [
        c.payload,
        c.transport,
        count(c.calls),
        count(Math.round(c.callsPerS)),
        perSecond(c.payloadBytesPerS),
        ms(c.latency.meanMs),
        ms(c.latency.p50Ms),
        ms(c.latency.p90Ms),
        ms(c.latency.p99Ms),
        ms(c.latency.p999Ms),
        ms(c.latency.maxMs),
        unary ? `${(c.latency.p50Ms / unary.latency.p50Ms).toFixed(2)}×` : '—',
      ];
    }),
  };
}

function range(values: number[]): string {
  if (values.length === 0) return '—';
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo.toFixed(2) === hi.toFixed(2) ? `${lo.toFixed(2)}×` : `${lo.toFixed(2)}–${hi.toFixed(2)}×`;
}

/** The sentence the README quotes: our three ratios beside the published ones. */
export function pingPongVerdict(cells: readonly PingPongCell[]): string {
  const payloads = [...new Set(cells.map((c) => c.payload))];
  const pairs = (a: string, b: string, f: (x: PingPongCell, y: PingPongCell) => number) =>
    payloads.flatMap((p) => {
      const x = find(cells, p, a);
      const y = find(cells, p, b);
      return x && y ? [f(x, y)] : [];
    });
  const restOverUnary = pairs('rest-json', 'grpc-unary', (r, g) => r.latency.p50Ms / g.latency.p50Ms);
  const bandwidth = pairs('grpc-unary', 'rest-json', (g, r) => g.payloadBytesPerS / r.payloadBytesPerS);
  const streamOverUnary = pairs('grpc-bidi', 'grpc-unary', (s, u) => s.callsPerS / u.callsPerS);
  return (
    `Across payloads, REST JSON's median latency is ${range(restOverUnary)} gRPC unary's (published: 5–10× up to p95); ` +
    `gRPC unary carries ${range(bandwidth)} REST's payload bytes/s (published ~3× small, ~2× large); ` +
    `the stream makes ${range(streamOverUnary)} the unary calls/s (published > 2×).`
  );
}

export function renderPingPongMarkdown(doc: PingPongDocument): string {
  const s = doc.settings;
  return [
    `# bench:pingpong (experiment §3b): ${s.startedAt} (preset ${presetOf(s)})`,
    '',
    `Per payload and transport: ${s.warmupMs} ms warm-up, then ${s.durationMs} ms of send → wait for the reply → send again (the same message), every latency in an HDR histogram (1 µs resolution, 3 significant digits). Payload bytes/s counts the echo content both ways. ${s.cores}.`,
    '',
    markdownTable(table(doc.results.cells)),
    '',
    pingPongVerdict(doc.results.cells),
    '',
    ...doc.results.failures.map((f) => `- FAILED ${f.payload} ${f.transport}: ${describeFailure(f.failure)}`),
    'Published (experiments.md §3b):',
    '',
    ...PINGPONG_PUBLISHED.map((p) => `- ${p}`),
    '',
  ].join('\n');
}

export function renderPingPongHtml(doc: PingPongDocument): string {
  const cells = doc.results.cells;
  const transports = [...new Set(cells.map((c) => c.transport))];
  const payloads = [...new Set(cells.map((c) => c.payload))];
  const curves = payloads.map((payload) =>
    renderPercentileChart({
      kind: 'percentiles',
      endLabels: false,
      caseId: payload,
      subheading: `${doc.settings.durationMs / 1000} s per transport`,
      label: `ping-pong latency by percentile, ${payload} payload`,
      series: cells.filter((c) => c.payload === payload).map((c) => ({ transport: c.transport, samplesMs: c.latency.curveMs })),
    }),
  );
  const bySize = (kind: string, caseId: string, unit: string, pick: (c: PingPongCell) => number, formatY?: (v: number) => string) =>
    renderLogChart({
      kind,
      caseId,
      subheading: 'against payload size (log–log)',
      label: `${caseId} against payload size, per transport`,
      xLabel: 'payload bytes',
      unit,
      series: transports.map((id) => ({ id, points: cells.filter((c) => c.transport === id).map((c) => [c.bytes, pick(c)] as const) })),
      formatY,
    });
  return renderSuitePage(doc, {
    title: 'bench:pingpong — fixed-duration ping-pong with an HDR histogram (experiment §3b)',
    summary: `Send, wait for the reply, send again, for a fixed time per payload and transport. ${pingPongVerdict(cells)}`,
    published: PINGPONG_PUBLISHED,
    sections: [
      {
        id: 'by-size',
        heading: 'Latency and bandwidth against payload size',
        intro: 'Median and p99 latency, and payload bytes per second (echo content both ways), for each payload size; both axes logarithmic.',
        legend: { ids: transports, marks: 'lines' },
        charts: [
          bySize('pingpong-p50', 'p50 latency', 'ms', (c) => c.latency.p50Ms, ms),
          bySize('pingpong-p99', 'p99 latency', 'ms', (c) => c.latency.p99Ms, ms),
          bySize('pingpong-bandwidth', 'bandwidth', 'bytes/s', (c) => c.payloadBytesPerS, (v) => perSecond(v)),
        ],
        table: htmlTable(table(cells)),
      },
      {
        id: 'distribution',
        heading: 'Latency by percentile, per payload',
        intro: 'From each cell’s HDR histogram: x is the percentile, y the latency of one round trip.',
        legend: { ids: transports, marks: 'lines' },
        charts: curves,
      },
    ],
  });
}
