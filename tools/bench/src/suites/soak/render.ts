// bench:soak's Markdown and HTML, from results.json alone (pure).
import { count } from '../../results';
import type { SuiteDocument } from '../common/document';
import { renderSuitePage } from '../common/page';
import { htmlTable, markdownTable, type Table } from '../common/tables';
import { MAX_RSS_GROWTH, MIN_RSS_JUDGE_S } from './judge';
import type { SoakResults, SoakSettings } from './measure';

export type SoakDocument = SuiteDocument<SoakSettings, SoakResults>;

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

function loadTable(r: SoakResults): Table {
  return {
    header: ['target', 'concurrency', 'calls', 'calls/s', 'p50 ms', 'p99 ms', 'errors'],
    numeric: [false, true, true, true, true, true, true],
    rows: r.loads.map((l) => [l.target, String(l.concurrency), count(l.calls), l.callsPerSecond.toFixed(0), l.p50Ms?.toFixed(2) ?? '—', l.p99Ms?.toFixed(2) ?? '—', String(l.errors)]),
  };
}

function rssTable(r: SoakResults): Table {
  return {
    header: ['server', 'RSS after warm-up', 'RSS at the end', 'growth'],
    numeric: [false, true, true, true],
    rows: Object.keys(r.rssWarm).map((k) => [k, mib(r.rssWarm[k]), mib(r.rssEnd[k]), `${((r.verdict.rssGrowth[k] - 1) * 100).toFixed(1)}%`]),
  };
}

function verdictLine(r: SoakResults): string {
  const rss = !r.verdict.rssJudged
    ? `RSS growth not judged (under ${MIN_RSS_JUDGE_S} s of load the heaps are still growing to their working size)`
    : r.verdict.rssOk
      ? `RSS within +${((MAX_RSS_GROWTH - 1) * 100).toFixed(0)}%`
      : 'RSS GREW too much';
  return `Verdict: ${r.verdict.errorsOk ? 'no errors' : 'ERRORS'}; ${rss}.`;
}

function setup(doc: SoakDocument): string {
  const s = doc.settings;
  return `${s.durationS} s of closed-loop load after ${s.warmupS} s of warm-up, ${s.rows} row(s) per call, on server-a and server-b at once (the blog variant's apps). ${s.cores}.`;
}

export function renderSoakMarkdown(doc: SoakDocument): string {
  const errors = doc.results.loads.flatMap((l) => Object.entries(l.errorKinds).map(([kind, n]) => `- ${l.target}: ${n} × ${kind}`));
  return [
    `# bench:soak: ${doc.settings.startedAt} (profile ${doc.settings.profile})`,
    '',
    setup(doc),
    '',
    markdownTable(loadTable(doc.results)),
    '',
    markdownTable(rssTable(doc.results)),
    '',
    verdictLine(doc.results),
    '',
    ...errors,
    '',
  ].join('\n');
}

export function renderSoakHtml(doc: SoakDocument): string {
  return renderSuitePage(doc, {
    title: 'bench:soak — both servers under sustained load',
    summary: setup(doc),
    published: [],
    sections: [
      { id: 'load', heading: 'Load', intro: 'Calls made by the closed loops, their throughput, latency and errors.', table: htmlTable(loadTable(doc.results)) },
      { id: 'memory', heading: 'Memory', intro: `${verdictLine(doc.results)} Resident memory of each server after the warm-up and at the end.`, table: htmlTable(rssTable(doc.results)) },
    ],
  });
}
