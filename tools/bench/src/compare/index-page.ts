import { COMPARE_KIT_SOURCE, type ComparableResult } from './compare';
import { networkOf, runtimeOf, securityOf, type StoredRun, type SuiteRunEntry, presetOf } from '../model';

/** What the index embeds per run: enough to list it and compare any two, nothing more. */
interface RunEntry {
  name: string;
  commit: string;
  startedAt: string;
  preset: string;
  incomplete: boolean;
  failed: number;
  cells: number;
  hasReport: boolean;
  results: ComparableResult[];
}

function entry(run: StoredRun, hasReport: boolean): RunEntry {
  const settings = run.doc.settings ?? {};
  return {
    name: run.name,
    commit: String(run.doc.provenance?.gitCommit ?? '').slice(0, 12),
    startedAt: String(settings.startedAt ?? run.name),
    preset: presetOf(settings),
    incomplete: Boolean(run.doc.incomplete),
    failed: run.doc.results.filter((r) => !r.ok).length,
    cells: run.doc.results.length,
    hasReport,
    // Each cell keyed as results' cellKey keys it, so the page never pairs a tls cell with its plain twin.
    results: run.doc.results.map((r) => ({
      network: networkOf(r),
      runtime: runtimeOf(r),
      security: securityOf(r),
      variant: r.variant ?? 'blog',
      case: r.case,
      transport: r.transport,
      ok: r.ok,
      summary: r.summary
        ? { n: r.summary.n, median: r.summary.median, mean: r.summary.mean, stddev: r.summary.stddev, medianCi: r.summary.medianCi ?? null }
        : null,
      machineProbeMs: r.machineProbeMs ?? null,
    })),
  };
}

/** JSON safe inside a <script> element (no `</script>`, no `<!--`). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem; color: #1b1b1b; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border-bottom: 1px solid #ddd; padding: .3rem .6rem; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.warn { color: #a23b00; }
.slower { color: #a23b00; } .faster { color: #006b3c; }
select { font: inherit; margin-right: 1rem; }
`;

/**
 * The compare view runs in the page: the same compareKit that bench:compare uses, inlined as source,
 * so the numbers match the command line exactly.
 */
const SCRIPT = (kitSource: string) => `
const kit = (${kitSource})();
const runs = JSON.parse(document.getElementById('runs-data').textContent);
const base = document.getElementById('base'), head = document.getElementById('head'), out = document.getElementById('comparison');
for (const select of [base, head]) for (const run of runs) select.add(new Option(run.name + (run.commit ? ' (' + run.commit + ')' : ''), run.name));
if (runs.length > 1) { base.selectedIndex = runs.length - 2; head.selectedIndex = runs.length - 1; }
function fmt(ms) { return ms < 10 ? ms.toFixed(3) : ms < 1000 ? ms.toFixed(1) : Math.round(ms).toLocaleString('en-US'); }
function render() {
  const b = runs.find(r => r.name === base.value), h = runs.find(r => r.name === head.value);
  out.replaceChildren();
  if (!b || !h) return;
  const rows = kit.compareRuns(b, h);
  const table = document.createElement('table');
  table.innerHTML = '<thead><tr><th>node</th><th>variant</th><th>case</th><th>transport</th><th>base median ms</th><th>head median ms</th><th>head vs base</th><th>p (Welch)</th><th>significant</th><th>CIs overlap</th><th>machine head/base</th></tr></thead>';
  const body = table.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    const cells = [r.runtime, r.variant, r.case, r.transport, fmt(r.baseMedian), fmt(r.headMedian), r.verdict,
      r.pValue === null ? '—' : r.pValue < 0.001 ? '<0.001' : r.pValue.toFixed(3), r.significant ? 'yes' : 'no',
      r.ciOverlap === null ? '—' : r.ciOverlap ? 'yes' : 'no', r.machineRatio === null ? '—' : r.machineRatio.toFixed(2) + '×'];
    cells.forEach((text, i) => { const td = tr.insertCell(); td.textContent = text; if (i >= 3 && i <= 4) td.className = 'num'; if (i === 5 && r.significant) td.className = r.ratio > 1 ? 'slower' : 'faster'; });
  }
  out.append(rows.length ? table : Object.assign(document.createElement('p'), { textContent: 'No cell succeeded in both runs.' }));
  if (rows.length) out.append(Object.assign(document.createElement('p'), { id: 'agreement', textContent: kit.describeAgreement(kit.agreement(rows)) }));
}
base.addEventListener('change', render); head.addEventListener('change', render); render();
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * results/index.html: every run, newest first, linking to its report, and a compare view for any
 * two runs. Self-contained (no network); regenerated after every run.
 */
export function renderIndex(runs: readonly { run: StoredRun; hasReport: boolean }[], suiteRuns: readonly SuiteRunEntry[] = []): string {
  const suiteRows = [...suiteRuns]
    .reverse()
    .map((r) => {
      const link = r.page ? `<a href="${encodeURIComponent(r.name)}/${r.page}">${escapeHtml(r.name)}</a>` : escapeHtml(r.name);
      return `<tr><td>${escapeHtml(r.axes ? `${r.suite} · ${r.axes}` : r.suite)}</td><td>${link}</td><td>${r.incomplete ? '<span class="warn">incomplete</span>' : 'ok'}</td></tr>`;
    })
    .join('\n');
  const suites =
    suiteRuns.length === 0
      ? ''
      : `<h2>Suite runs</h2>
<p>The other experiments (bench:echo, bench:latency, bench:serialization, bench:pingpong, bench:load; bench:suites runs them all), newest first.</p>
<table id="suite-runs"><thead><tr><th>suite</th><th>run (UTC)</th><th>status</th></tr></thead>
<tbody>
${suiteRows}
</tbody></table>`;
  const entries = runs.map(({ run, hasReport }) => entry(run, hasReport));
  const rows = [...entries]
    .reverse()
    .map((e) => {
      const link = e.hasReport ? `<a href="${encodeURIComponent(e.name)}/report.html">${escapeHtml(e.name)}</a>` : escapeHtml(e.name);
      const status = e.incomplete ? '<span class="warn">incomplete</span>' : e.failed > 0 ? `<span class="warn">${e.failed} failed</span>` : 'ok';
      return `<tr><td>${link}</td><td><code>${escapeHtml(e.commit)}</code></td><td>${escapeHtml(e.preset)}</td><td class="num">${e.cells}</td><td>${status}</td><td><a href="${encodeURIComponent(e.name)}/results.md">results.md</a></td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>gRPC vs JSON: runs</title><style>${STYLE}</style></head>
<body>
<h1>gRPC vs JSON benchmark runs</h1>
<p>${entries.length} run(s) in this folder, newest first. Each links to its report.</p>
<table id="runs"><thead><tr><th>run (UTC)</th><th>commit</th><th>preset</th><th>cells</th><th>status</th><th>table</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<h2>Compare two runs</h2>
<p>Ratios are of medians (head ÷ base) ± one standard error from each median's 95% CI; "significant" is Welch's t-test at p &lt; 0.05. Same computation as <code>npx nx run bench:compare</code>.</p>
<label>base <select id="base"></select></label><label>head <select id="head"></select></label>
<div id="comparison"></div>
${suites}
<script type="application/json" id="runs-data">${scriptJson(entries)}</script>
<script>${SCRIPT(COMPARE_KIT_SOURCE)}</script>
</body></html>
`;
}
