// bench:load's Markdown and HTML, from results.json alone (pure).
import { bytes, count, ms, presetOf } from '../../model';
import { renderBarChart } from '../../export';
import type { SuiteDocument } from '../common/document';
import { renderSuitePage } from '../common/page';
import { htmlTable, markdownTable, type Table } from '../common/tables';
import type { LoadCell, LoadResults, LoadSettings } from './measure';
import { GENERATOR_BOUND_SHARE } from './plan';
import { describeFailure } from '../../measure';

export type LoadDocument = SuiteDocument<LoadSettings, LoadResults>;

const share = (value: number) => `${Math.round(100 * value)}%`;

function table(cells: readonly LoadCell[]): Table {
  return {
    header: ['rows', 'in flight', 'target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'timeouts', 'server CPU', 'server RSS', 'generator CPU'],
    numeric: [true, true, false, true, true, true, true, true, true, true, true],
    rows: cells.map((c) => [
      count(c.rows),
      count(c.concurrency),
      c.target,
      count(Math.round(c.requestsPerS)),
      ms(c.latency.p50Ms),
      ms(c.latency.p99Ms),
      count(c.errors),
      count(c.timeouts),
      share(c.serverCpuShare),
      bytes(c.serverRssBytes),
      `${share(c.generatorCpuShare)}${c.generatorBound ? ' ⚠' : ''}`,
    ]),
  };
}

/** The sentence the README quotes: best throughput per target, and whether the generator was the limit. */
export function loadVerdict(cells: readonly LoadCell[]): string {
  const parts: string[] = [];
  for (const rows of [...new Set(cells.map((c) => c.rows))]) {
    const best = (target: string) => cells.filter((c) => c.rows === rows && c.target === target).sort((a, b) => b.requestsPerS - a.requestsPerS)[0];
    const h = best('http-json');
    const g = best('grpc');
    if (h && g) parts.push(`${rows} row(s): JSON peaks at ${count(Math.round(h.requestsPerS))} req/s (${h.concurrency} in flight), gRPC at ${count(Math.round(g.requestsPerS))} req/s (${g.concurrency} in flight)`);
    const nest = [...new Set(cells.filter((c) => c.rows === rows && c.target.startsWith('nest-')).map((c) => c.target))].map((target) => best(target));
    if (nest.length > 0) parts.push(`${rows} row(s) through Nest's transports: ${nest.map((c) => `${c.target} ${count(Math.round(c.requestsPerS))} req/s (${c.concurrency} in flight)`).join(', ')}`);
  }
  const bound = cells.filter((c) => c.generatorBound).length;
  const errors = cells.reduce((n, c) => n + c.errors + c.timeouts, 0);
  return `${parts.join('; ')}. ${errors} error(s) or timeout(s) in all. ${bound} of ${cells.length} cells had the load generator at ≥ ${share(GENERATOR_BOUND_SHARE)} of a core (marked ⚠): there the generator, sharing the machine with the server, is likely the limit.`;
}

export function renderLoadMarkdown(doc: LoadDocument): string {
  const s = doc.settings;
  return [
    `# bench:load: ${s.startedAt} (preset ${presetOf(s)})`,
    '',
    `Per cell: ${s.warmupMs} ms warm-up, then ${s.durationMs} ms of closed-loop load (a new call as soon as one returns) with N calls in flight; JSON driven by autocannon, gRPC by our loop on one channel, each Nest transport by our loop on one ClientProxy (server CPU: server-b's; a broker's is not in it). CPU is a share of one core over the cell. ${s.cores}.`,
    '',
    markdownTable(table(doc.results.cells)),
    '',
    loadVerdict(doc.results.cells),
    '',
    ...doc.results.failures.map((f) => `- FAILED ${f.rows} row(s) × ${f.concurrency} ${f.target}: ${describeFailure(f.failure)}`),
    '',
  ].join('\n');
}

export function renderLoadHtml(doc: LoadDocument): string {
  const cells = doc.results.cells;
  const targets = [...new Set(cells.map((c) => c.target))];
  const charts = [...new Set(cells.map((c) => c.rows))].flatMap((rows) => {
    const groups = (pick: (c: LoadCell) => number, label: (c: LoadCell) => string) =>
      [...new Set(cells.filter((c) => c.rows === rows).map((c) => c.concurrency))].map((concurrency) => ({
        label: `${concurrency} in flight`,
        bars: cells
          .filter((c) => c.rows === rows && c.concurrency === concurrency)
          .map((c) => ({ transport: c.target, value: pick(c), valueLabel: label(c), tooltip: `${c.target}, ${concurrency} in flight: ${label(c)}${c.generatorBound ? ' (generator-bound)' : ''}` })),
      }));
    return [
      renderBarChart({
        kind: 'load-throughput',
        caseId: `${rows} row(s): req/s`,
        subheading: 'completed calls per second',
        label: `requests per second at each concurrency, ${rows} row(s) per call`,
        unit: 'req/s',
        groups: groups((c) => c.requestsPerS, (c) => count(Math.round(c.requestsPerS))),
      }),
      renderBarChart({
        kind: 'load-p99',
        caseId: `${rows} row(s): p99`,
        subheading: '99th percentile latency',
        label: `p99 latency at each concurrency, ${rows} row(s) per call`,
        unit: 'ms',
        groups: groups((c) => c.latency.p99Ms, (c) => ms(c.latency.p99Ms)),
      }),
    ];
  });
  return renderSuitePage(doc, {
    title: 'bench:load — sustained load and a concurrency sweep',
    summary: `Closed-loop load with 1, 10 and 100 calls in flight against server-a (autocannon) and server-b (our gRPC loop). ${loadVerdict(cells)}`,
    published: [],
    sections: [
      {
        id: 'sweep',
        heading: 'Throughput and tail latency against concurrency',
        intro: 'Completed calls per second and p99 latency at each concurrency. The generator runs in the bench process on the same two cores as the server; a generator CPU near 100 % of a core (⚠ in the table) means its limit, not the server’s, is being measured.',
        legend: { ids: targets, marks: 'bars' },
        charts,
        table: htmlTable(table(cells)),
      },
    ],
  });
}
