// The self-contained HTML report of one run: inline CSS and SVG, no script, nothing fetched.
import { TRANSPORTS, type RunDocument, OUTLIER_Z, describeNetworks, describePaths, presetOf, describeProfiledRun } from '../../model';
import { withoutAblations } from '../../analysis';
import { bytesChart, coldChart, cpuChart, distributionChart, mediansChart, phasesChart, rssChart } from './case-charts';
import { groupByCase, type CaseView } from './cases';
import { renderDecisionMapHtml } from './decision-map';
import { escapeHtml } from './escape';
import { renderLegend } from './legend';
import { htmlDocument } from './page';
import { renderProvenance } from './provenance';
import { el } from './svg';
import { renderResultsTable } from './table';
import { renderVariantsTable } from './variants-table';
import { renderVerdictSection } from './verdict';
import { renderAttributionSection } from './attribution';
import { renderAblationSection } from './ablation';
import { renderPathCostSection, renderPathCountersSection } from './path-cost';
import { renderBrokersHtmlSection } from './brokers';
import { renderRankingHtmlSection } from './ranking';
import { renderCellCountersSection } from './cell-counters';
import { describeDisturbedVisits } from '../cell-counters';
import { renderTlsHtmlSection } from './tls-handshakes';
import { renderCpuProfilesSection } from './flame-graphs';


interface ChartSection {
  id: string;
  heading: string;
  intro: string;
  legend: Parameters<typeof renderLegend>[0];
  chart: (view: CaseView) => string;
}

const CHART_SECTIONS: readonly ChartSection[] = [
  {
    id: 'medians',
    heading: 'Median time per call',
    intro:
      'Bars are the median of the timed calls, whiskers the 95 % confidence interval of that median (distribution-free, from order statistics), diamonds the blog’s average for the same cell. Each case has its own linear scale starting at zero.',
    legend: ['bars', 'ci', 'blog'],
    chart: mediansChart,
  },
  {
    id: 'phases',
    heading: 'Where the time goes',
    intro:
      'Each bar is the mean time of a timed call, split into what the processes measured: the server building the rows, the server encoding the reply, the client decoding it, and the remainder (framework, transport and waiting). Heights are ms per call and add up to the mean call time (the mean, not the median above); the labels inside are shares of it. Parallel cases add up the phases of all their requests, which overlap in time: where these exceed the mean call, only the measured phases are drawn and a dashed line marks the mean.',
    legend: ['phases'],
    chart: phasesChart,
  },
  {
    id: 'distribution',
    heading: 'Latency distribution',
    intro:
      `Every timed call, sorted: the x axis is the percentile (0 = fastest call, 50 = median, 100 = slowest), the y axis its time. A flat line is a steady transport; a line that climbs at the right has a slow tail. Points circled in black are outliers (modified z-score above ${OUTLIER_Z}), reported, not dropped.`,
    legend: ['lines'],
    chart: distributionChart,
  },
  {
    id: 'cold',
    heading: 'Cold call, warm-up and warm median',
    intro:
      'One call on a brand-new connection (connection set-up included), then the first warm-up call on the connection ' +
      'the timed calls reuse (set-up done, but client and servers not yet optimized by V8), then the median of the ' +
      'timed calls. The gap between the last two is why the bench warms up (--warmup-ms) before it times anything.',
    legend: ['bars'],
    chart: coldChart,
  },
  {
    id: 'bytes',
    heading: 'Response size',
    intro: 'One reply body: the JSON text, or the protobuf message without the gRPC frame prefix and HTTP/2 headers.',
    legend: ['bars'],
    chart: bytesChart,
  },
  {
    id: 'cpu',
    heading: 'CPU time per call',
    intro:
      'User + system CPU time of the client and of the server that answered, measured over the timed calls and divided by their number. Client and servers share the machine’s cores, so CPU time is the cost; wall time is the latency above.',
    legend: ['bars'],
    chart: cpuChart,
  },
  {
    id: 'rss',
    heading: 'Peak memory',
    intro: 'Largest resident set size (RSS) of the client and of the serving server during the timed calls.',
    legend: ['bars'],
    chart: rssChart,
  },
];

const VARIANTS_INTRO =
  'The median of each cell in every variant, and ratios of those medians: blog ÷ bare is what the framework costs, tuned ÷ blog what the tunings recover (below 1: faster), tuned ÷ bare what is left. — marks a cell that failed or did not run. Variants run one after the other, so drift of the machine between them is not cancelled out the way interleaving cancels it between transports.';

function str(value: unknown, fallback = ''): string {
  return value === null || value === undefined ? fallback : String(value);
}

function warnings(doc: RunDocument): string {
  const failed = doc.results.filter((r) => !r.ok).length;
  const out: string[] = [];
  if (doc.incomplete) {
    out.push(
      el('div', { class: 'warning', role: 'alert', 'data-warning': 'incomplete' }, 'Incomplete run: it was interrupted or stopped before every planned case ran. What is here was measured; what is missing was not.'),
    );
  }
  if (failed > 0) {
    out.push(el('div', { class: 'warning', role: 'alert', 'data-warning': 'failed' }, `${failed} of ${doc.results.length} case × transport cell${doc.results.length === 1 ? '' : 's'} failed; see the table.`));
  }
  const profiled = describeProfiledRun(doc.settings);
  if (profiled !== null) out.push(el('div', { class: 'warning', role: 'alert', 'data-warning': 'profiled' }, escapeHtml(profiled)));
  const disturbed = describeDisturbedVisits(doc.results);
  if (disturbed !== null) out.push(el('div', { class: disturbed.startsWith('0 of') ? 'run' : 'warning', 'data-warning': 'disturbed' }, escapeHtml(disturbed)));
  return out.join('\n');
}

const HOW_TO_READ = el(
  'section',
  { class: 'howto', id: 'how-to-read' },
  el('strong', {}, 'How to read this report'),
  el(
    'ul',
    {},
    el('li', {}, 'Times are <em>per call</em>, measured in the client around the server-to-server call, decoding of the reply included. A call fires all of a case’s <code>requests</code> at once and awaits them together.'),
    el('li', {}, 'Read the <strong>median</strong>. Timed calls follow a warm-up and alternate between transports (json, grpc, json, …), so drift on the machine hits both alike.'),
    el('li', {}, '<strong>cold</strong> is one call on a brand-new connection; <strong>gRPC/JSON</strong> is the ratio of medians (above 1: gRPC is slower), beside the blog’s ratio of averages.'),
    el('li', {}, 'Cells marked <span class="noisy">~</span> are noisy. Hover over any bar, whisker, diamond or point for its exact value.'),
  ),
);

function chartSection(section: ChartSection, views: readonly CaseView[], transports: readonly string[]): string {
  return el(
    'section',
    { id: section.id, 'data-section': section.id },
    el('h2', {}, escapeHtml(section.heading)),
    el('p', {}, escapeHtml(section.intro)),
    renderLegend(section.legend, transports),
    el('div', { class: 'grid' }, ...views.map((view) => el('figure', { class: 'chart' }, section.chart(view)))),
  );
}

/** The whole report as one HTML document (pure: the same document always gives the same string). */
export function renderReport(doc: RunDocument): string {
  // Ablation variants (one tuning flipped) have their own table; every other section shows the named variants.
  const named = withoutAblations(doc.results);
  const views = groupByCase(named);
  const startedAt = str(doc.settings.startedAt, 'unknown start');
  const commit = str(doc.provenance.gitCommit, 'unknown').slice(0, 12);
  const pageTitle = `gRPC vs JSON: run of ${startedAt}`;
  const variants = renderVariantsTable(named);
  const map = renderDecisionMapHtml(named);
  const attribution = renderAttributionSection(named);
  const rankingSection = renderRankingHtmlSection(named);
  const ablation = renderAblationSection(doc.results);
  const pathCost = renderPathCostSection(doc.results);
  const pathCounters = renderPathCountersSection(doc.results);
  const cellCounters = renderCellCountersSection(doc.results);
  const brokers = renderBrokersHtmlSection(doc.results, doc.provenance.networks);
  const tls = renderTlsHtmlSection(doc.results);
  const profiles = renderCpuProfilesSection(named);
  const transports = TRANSPORTS.filter((t) => named.some((r) => r.transport === t));
  const tables = [['verdict', 'Verdict'], ...(rankingSection ? [['ranking', 'Every transport ranked']] : []), ...(attribution ? [['attribution', 'Why, decomposed']] : []), ...(ablation ? [['ablation', 'Ablation']] : []), ...(map ? [['decision-map', 'Decision map']] : []), ['results', 'Table'], ...(variants ? [['variants', 'Variants']] : []), ...(pathCost ? [['path-cost', "The stage's CPU"]] : []), ...(pathCounters ? [['path-counters', 'The production path']] : []), ...(brokers ? [['brokers', 'Brokers']] : []), ...(cellCounters ? [['cell-counters', 'Modes and TCP counters']] : []), ...(tls ? [['tls', 'TLS handshakes']] : []), ...(profiles ? [['cpu-profiles', 'CPU profiles']] : [])];
  const nav = el(
    'nav',
    {},
    el(
      'ul',
      {},
      ...[...tables, ...CHART_SECTIONS.map((s) => [s.id, s.heading]), ['provenance', 'How the run was made']].map(([id, label]) =>
        el('li', {}, el('a', { href: `#${id}` }, escapeHtml(label))),
      ),
    ),
  );
  const body = el(
    'main',
    {},
    el(
      'header',
      {},
      el('h1', {}, 'gRPC or JSON between NestJS services'),
      el(
        'p',
        { class: 'run' },
        `Run started ${escapeHtml(startedAt)} · preset ${escapeHtml(presetOf(doc.settings))} · commit <code>${escapeHtml(commit)}</code>` +
          (doc.provenance.gitDirty === true ? ' (with uncommitted changes)' : '') +
          ` · ${views.length} case${views.length === 1 ? '' : 's'}, ${doc.results.length} result${doc.results.length === 1 ? '' : 's'}`,
      ),
      warnings(doc),
      // The path first: a figure read without its round-trip time cannot be read at all.
      ...describeNetworks(doc.provenance.networks, doc.settings.clientUrl, doc.provenance).map((line) => el('p', { class: 'network', 'data-network-line': '' }, `Network ${escapeHtml(line)}`)),
      ...describePaths(doc.provenance.path).map((line) => el('p', { class: 'network', 'data-path-line': '' }, `Path ${escapeHtml(line.replace(/\*\*/g, ''))}`)),
    ),
    // The verdict first (the table, then its one chart), the details below.
    renderVerdictSection(named),
    HOW_TO_READ,
    nav,
    rankingSection,
    attribution,
    ablation,
    map ? el('section', { id: 'decision-map', 'data-section': 'decision-map' }, el('h2', {}, 'Decision map'), map) : '',
    el('section', { id: 'results', 'data-section': 'results' }, el('h2', {}, 'Results'), renderResultsTable(doc.results)),
    variants
      ? el(
          'section',
          { id: 'variants', 'data-section': 'variants' },
          el('h2', {}, 'Variants'),
          el('p', {}, escapeHtml(VARIANTS_INTRO)),
          variants,
        )
      : '',
    pathCost,
    pathCounters,
    brokers,
    cellCounters,
    tls,
    profiles,
    ...CHART_SECTIONS.map((s) => chartSection(s, views, transports)),
    el('section', { id: 'provenance', 'data-section': 'provenance' }, el('h2', {}, 'How the run was made'), renderProvenance(doc)),
    el('footer', {}, `Generated from results.json (schema version ${escapeHtml(str(doc.schemaVersion))}). A single file: no scripts, nothing fetched.`),
  );
  return htmlDocument(pageTitle, body);
}
