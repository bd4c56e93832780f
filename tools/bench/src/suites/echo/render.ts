// bench:echo's Markdown and HTML, from results.json alone (pure).
import { renderBarChart, renderPercentileChart } from '../../export';
import { count, ms, presetOf } from '../../model';
import type { SuiteDocument } from '../common/document';
import { renderSuitePage } from '../common/page';
import { htmlTable, markdownTable, type Table } from '../common/tables';
import type { EchoResults, EchoSettings } from './measure';
import { ECHO_TRANSPORTS } from './transports';
import { describeFailure } from '../../measure';

export type EchoDocument = SuiteDocument<EchoSettings, EchoResults>;

export const ECHO_PUBLISHED = [
  'Go server, C# client, 10,000 sequential echo calls over one channel: gRPC unary 1.983 s (5,043 jobs/s), bidirectional stream 1.131 s (8,843 jobs/s), REST with a protobuf body 3.329 s (3,004 jobs/s), REST with a JSON body 4.221 s (2,369 jobs/s).',
  'Opening and closing a stream costs more than one unary call, so streaming pays off as the message count grows.',
];

const published = (id: string) => ECHO_TRANSPORTS.find((v) => v.id === id)?.published;
const seconds = (valueMs: number) => (valueMs / 1000).toFixed(3);

function throughputTable(results: EchoResults): Table {
  const unary = results.cells.find((c) => c.transport === 'grpc-unary');
  const unaryPublished = published('grpc-unary');
  return {
    header: ['transport', 'calls', 'rounds', 'elapsed s', 'jobs/s', '÷ gRPC unary', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'published elapsed s', 'published jobs/s', 'published ÷ unary'],
    numeric: [false, true, true, true, true, true, true, true, true, true, true, true, true],
    rows: results.cells.map((c) => {
      const p = published(c.transport);
      return [
        c.transport,
        count(c.calls),
        String(c.rounds.length),
        seconds(c.elapsedMs),
        count(Math.round(c.jobsPerS)),
        unary ? `${(c.jobsPerS / unary.jobsPerS).toFixed(2)}×` : '—',
        ms(c.latency.p50Ms),
        ms(c.latency.p95Ms),
        ms(c.latency.p99Ms),
        ms(c.latency.maxMs),
        p ? p.elapsedS.toFixed(3) : '—',
        p ? count(p.jobsPerS) : '—',
        p && unaryPublished ? `${(p.jobsPerS / unaryPublished.jobsPerS).toFixed(2)}×` : '—',
      ];
    }),
  };
}

function streamTable(results: EchoResults): Table | null {
  const cost = results.streamCost;
  if (!cost) return null;
  const unary = results.cells.find((c) => c.transport === 'grpc-unary');
  const bidi = results.cells.find((c) => c.transport === 'grpc-bidi');
  const row = (what: string, p50: number | undefined, p95: number | undefined) => [what, ms(p50), ms(p95)];
  return {
    header: ['what', 'p50 ms', 'p95 ms'],
    numeric: [false, true, true],
    rows: [
      row(`open a stream + first echo (${cost.opens} streams)`, cost.openAndFirstReplyMs.p50Ms, cost.openAndFirstReplyMs.p95Ms),
      row('close a stream (end → status)', cost.closeMs.p50Ms, cost.closeMs.p95Ms),
      row('one unary call (timed loop)', unary?.latency.p50Ms, unary?.latency.p95Ms),
      row('one message on an open stream (timed loop)', bidi?.latency.p50Ms, bidi?.latency.p95Ms),
    ],
  };
}

/** The sentence the README quotes: how our ranking compares with the authors'. */
export function echoVerdict(results: EchoResults): string {
  const ranked = [...results.cells].sort((a, b) => b.jobsPerS - a.jobsPerS).map((c) => `${c.transport} ${count(Math.round(c.jobsPerS))}/s`);
  return `Fastest first: ${ranked.join(', ')} (published order: grpc-bidi, grpc-unary, rest-protobuf, rest-json).`;
}

export function renderEchoMarkdown(doc: EchoDocument): string {
  const s = doc.settings;
  const lines = [
    `# bench:echo (experiment §4): ${s.startedAt} (preset ${presetOf(s)})`,
    '',
    `${count(s.calls)} sequential echo calls of ${s.contentBytes} bytes per transport and round, ${s.rounds} round(s) in rotating order, after ${count(s.warmup)} warm-up calls; elapsed is the median over rounds. ${s.cores}.`,
    '',
    markdownTable(throughputTable(doc.results)),
    '',
    echoVerdict(doc.results),
    '',
  ];
  const stream = streamTable(doc.results);
  if (stream) lines.push('Stream open/close cost:', '', markdownTable(stream), '');
  for (const f of doc.results.failures) lines.push(`- FAILED ${f.transport} round ${f.round + 1}: ${describeFailure(f.failure)}`);
  lines.push('Published (experiments.md §4):', '', ...ECHO_PUBLISHED.map((p) => `- ${p}`), '');
  return lines.join('\n');
}

export function renderEchoHtml(doc: EchoDocument): string {
  const cells = doc.results.cells;
  const s = doc.settings;
  const subheading = `${count(s.calls)} calls × ${s.rounds} round(s), ${s.contentBytes} B content`;
  const jobs = jobsChart(cells, subheading);
  const elapsed = elapsedChart(cells, subheading);
  const curve = renderPercentileChart({
    kind: 'percentiles',
    endLabels: false,
    caseId: 'per-call latency',
    subheading: `every call of every round (${count(cells.reduce((n, c) => n + c.latency.n, 0))})`,
    label: 'echo: per-call latency by percentile',
    series: cells.map((c) => ({ transport: c.transport, samplesMs: c.curveMs })),
  });
  const stream = streamTable(doc.results);
  const ids = cells.map((c) => c.transport);
  return renderSuitePage(doc, {
    title: 'bench:echo — gRPC unary vs bidirectional stream vs REST (experiment §4)',
    summary: `${count(s.calls)} sequential echo calls per transport over one connection, channel or stream, timed as a whole. ${echoVerdict(doc.results)}`,
    published: ECHO_PUBLISHED,
    sections: [
      {
        id: 'throughput',
        heading: 'Throughput',
        intro: 'Jobs per second and elapsed time of the whole loop (median over rounds; whiskers: fastest and slowest round). Diamonds: the authors’ figures on their machine (Go server, C# client), for the ranking rather than the absolute values.',
        legend: { ids, marks: 'bars', published: true },
        charts: [jobs, elapsed],
        table: htmlTable(throughputTable(doc.results)),
      },
      {
        id: 'latency',
        heading: 'Per-call latency',
        intro: 'Every call of every round, sorted: x is the percentile, y the time of one call (for the stream, one message and its reply).',
        legend: { ids, marks: 'lines' },
        charts: [curve],
      },
      ...(stream
        ? [{ id: 'stream-cost', heading: 'What a stream costs to open and close', intro: 'A new stream on a connected channel, one echo, then end() until the server’s status; beside one unary call and one message on an open stream.', table: htmlTable(stream) }]
        : []),
    ],
  });
}

type EchoCell = EchoDocument['results']['cells'][number];

/** Jobs per second per transport, with the published figure as a marker. */
function jobsChart(cells: readonly EchoCell[], subheading: string): string {
  return renderBarChart({
    kind: 'echo-throughput',
    caseId: 'jobs/s',
    subheading,
    label: 'echo throughput: jobs per second per transport, with the published figure',
    unit: 'jobs/s',
    groups: [
      {
        label: '',
        bars: cells.map((c) => {
          const p = published(c.transport);
          return {
            transport: c.transport,
            value: c.jobsPerS,
            valueLabel: count(Math.round(c.jobsPerS)),
            tooltip: `${c.transport}: ${count(Math.round(c.jobsPerS))} jobs/s (median of ${c.rounds.length} rounds)`,
            marker: p ? { value: p.jobsPerS, tooltip: `published: ${count(p.jobsPerS)} jobs/s (Go server, C# client)` } : null,
          };
        }),
      },
    ],
  });
}

/** Elapsed seconds per transport (whiskers: fastest and slowest round), with the published figure as a marker. */
function elapsedChart(cells: readonly EchoCell[], subheading: string): string {
  return renderBarChart({
    kind: 'echo-elapsed',
    caseId: 'elapsed',
    subheading,
    label: 'echo: elapsed seconds per transport, with the published figure',
    unit: 's',
    groups: [
      {
        label: '',
        bars: cells.map((c) => {
          const p = published(c.transport);
          const lo = Math.min(...c.rounds.map((r) => r.elapsedMs)) / 1000;
          const hi = Math.max(...c.rounds.map((r) => r.elapsedMs)) / 1000;
          return {
            transport: c.transport,
            value: c.elapsedMs / 1000,
            valueLabel: seconds(c.elapsedMs),
            tooltip: `${c.transport}: ${seconds(c.elapsedMs)} s for ${count(c.calls)} calls`,
            interval: c.rounds.length > 1 ? { low: lo, high: hi, tooltip: `rounds: ${lo.toFixed(3)} – ${hi.toFixed(3)} s` } : null,
            marker: p ? { value: p.elapsedS, tooltip: `published: ${p.elapsedS} s` } : null,
          };
        }),
      },
    ],
  });
}
