// bench:soak's Markdown and HTML, from results.json alone (pure).
import { count, presetOf } from '../../model';
import type { SuiteDocument } from '../common/document';
import { renderSuitePage } from '../common/page';
import { htmlTable, markdownTable, type Table } from '../common/tables';
import { MAX_LATE_GROWTH, MAX_RSS_GROWTH, MIN_RSS_JUDGE_S } from './judge';
import { MEMORY_SAMPLE_MS, type SoakResults, type SoakSettings } from './measure';

export type SoakDocument = SuiteDocument<SoakSettings, SoakResults>;

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

function loadTable(r: SoakResults): Table {
  return {
    header: ['target', 'concurrency', 'calls', 'calls/s', 'p50 ms', 'p99 ms', 'errors'],
    numeric: [false, true, true, true, true, true, true],
    rows: r.loads.map((l) => [l.target, String(l.concurrency), count(l.calls), l.callsPerSecond.toFixed(0), l.p50Ms?.toFixed(2) ?? '—', l.p99Ms?.toFixed(2) ?? '—', String(l.errors)]),
  };
}

/** A growth given as a share of RSS after warm-up. */
const share = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}% of RSS`);
const pct = (ratio: number | null | undefined) => (ratio === null || ratio === undefined ? '—' : `${((ratio - 1) * 100).toFixed(1)}%`);

function rssTable(r: SoakResults): Table {
  return {
    header: ['server', 'RSS after warm-up', 'RSS at the end', 'growth', 'RSS peak, 2nd half ÷ 1st', 'live heap, 1st → 2nd half', 'external, 1st → 2nd half'],
    numeric: [false, true, true, true, true, true, true],
    rows: Object.keys(r.rssWarm).map((k) => {
      const m = r.verdict.memory?.[k];
      return [k, mib(r.rssWarm[k]), mib(r.rssEnd[k]), pct(r.verdict.rssGrowth[k]), pct(m?.lateGrowth), share(m?.liveHeapGrowth), share(m?.externalGrowth)];
    }),
  };
}

/** The readings every 10 s: RSS, V8's reserved heap, heap in use and external memory per server, in MiB. */
function seriesTable(r: SoakResults): Table | null {
  const servers = Object.keys(r.memory ?? {});
  if (!r.memory || !servers.length) return null;
  const every = Math.max(1, Math.round(10_000 / MEMORY_SAMPLE_MS));
  const rows = r.memory[servers[0]].map((_, i) => i).filter((i, _n, all) => i % every === 0 || i === all.length - 1);
  const cell = (bytes: number) => (bytes > 0 ? (bytes / 1048576).toFixed(1) : '—');
  return {
    header: ['t s', ...servers.flatMap((k) => [`${k} RSS`, `${k} heap reserved`, `${k} heap used`, `${k} external`])],
    numeric: [true, ...servers.flatMap(() => [true, true, true, true])],
    rows: rows.map((i) => [r.memory![servers[0]][i].t.toFixed(0), ...servers.flatMap((k) => { const x = r.memory![k][i]; return x ? [cell(x.rssBytes), cell(x.heapTotalBytes), cell(x.heapUsedBytes), cell(x.externalBytes)] : ['—', '—', '—', '—']; })]),
  };
}

function verdictLine(r: SoakResults): string {
  const limit = `${(MAX_LATE_GROWTH * 100).toFixed(0)}% of RSS`;
  const rss = !r.verdict.rssJudged
    ? `memory growth not judged (under ${MIN_RSS_JUDGE_S} s of load the heaps are still growing to their working size)`
    : !r.verdict.memory
      ? r.verdict.rssOk ? `RSS within +${((MAX_RSS_GROWTH - 1) * 100).toFixed(0)}%` : 'RSS GREW too much'
      : r.verdict.rssOk
        ? `nothing retained (live heap and external memory each grew by less than ${limit} from the first half to the second)`
        : `memory RETAINED (live heap or external memory grew by more than ${limit} from the first half to the second)`;
  return `Verdict: ${r.verdict.errorsOk ? 'no errors' : 'ERRORS'}; ${rss}.`;
}

function setup(doc: SoakDocument): string {
  const s = doc.settings;
  return `${s.durationS} s of closed-loop load after ${s.warmupS} s of warm-up, ${s.rows} row(s) per call, on server-a and server-b at once (the blog variant's apps). ${s.cores}.`;
}

export function renderSoakMarkdown(doc: SoakDocument): string {
  const series = seriesTable(doc.results);
  const errors = doc.results.loads.flatMap((l) => Object.entries(l.errorKinds).map(([kind, n]) => `- ${l.target}: ${n} × ${kind}`));
  return [
    `# bench:soak: ${doc.settings.startedAt} (preset ${presetOf(doc.settings)})`,
    '',
    setup(doc),
    '',
    markdownTable(loadTable(doc.results)),
    '',
    markdownTable(rssTable(doc.results)),
    '',
    verdictLine(doc.results),
    ...(series ? ['', 'Memory during the soak, MiB (heap used includes garbage not yet collected):', '', markdownTable(series)] : []),
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
      { id: 'memory', heading: 'Memory', intro: `${verdictLine(doc.results)} Resident memory of each server after the warm-up and at the end, and what grew from the first half to the second: the live heap (the lowest heap in use) and the lowest external memory, as shares of RSS after warm-up.`, table: htmlTable(rssTable(doc.results)) },
      ...(seriesTable(doc.results) ? [{ id: 'memory-series', heading: 'Memory during the soak', intro: 'Each server every 10 s, MiB (heap used includes garbage not yet collected).', table: htmlTable(seriesTable(doc.results)!) }] : []),
    ],
  });
}
