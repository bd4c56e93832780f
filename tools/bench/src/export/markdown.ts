import { type Cell, type RunDocument, describeDeployedApps, anyOffLoopback, anyRuntimes, blogRatio, grpcOverJson, networkOf, placeLabels, runtimeOf, securityOf, anySecurity, bytes, count, describeMemoryReclaim, describeNetworks, describeRuntimes, describePaths, describeVisits, ms, ratio, presetOf, describeProfiledRun } from '../model';
import { failedCellText, decisionMap, verdict, attribution, withoutAblations } from '../analysis';
import { renderBreakdown, renderVariantRatios } from './breakdown';
import { renderDecisionMap } from './decision-map';
import { renderVerdictMarkdown, VERDICT_NOTE } from './verdict';
import { renderAttributionSection } from './attribution';
import { renderAblationSection } from './ablation';
import { renderTlsSection } from './tls-handshakes';
import { renderPathCostSection, renderPathCountersSection } from './path-cost';
import { describeDisturbedVisits, renderCellCountersSection } from './cell-counters';
import { renderBrokersSection } from './brokers';
import { renderRankingSection } from './ranking';
import { renderCpuProfileMarkdown } from './cpu-profile';

/** The table's columns, shared by the Markdown and HTML tables. */
export const TABLE_HEADER = [
  'variant',
  'case',
  'rows',
  'requests',
  'transport',
  'median ms',
  'mean ms',
  'min ms',
  'p95 ms',
  'max ms',
  'stddev ms',
  'CV',
  'median 95% CI',
  'cold ms',
  'response bytes',
  'blog avg ms',
  'gRPC/JSON',
  'blog gRPC/JSON',
];

/** The table's columns for these results: with a network column first when any ran off loopback, a node column when several runtimes ran, a security column when any ran over TLS. */
export function tableHeader(results: readonly Cell[]): string[] {
  return [...(anyOffLoopback(results) ? ['network'] : []), ...(anyRuntimes(results) ? ['node'] : []), ...(anySecurity(results) ? ['security'] : []), ...TABLE_HEADER];
}

/** Marks a noisy cell's median so no one reads its decimals as signal (explained in a footnote). */
export const NOISY_MARK = '~';

function ci(summary: Cell['summary']): string {
  const interval = summary?.medianCi;
  return interval ? `${ms(interval.low)}–${ms(interval.high)}` : '—';
}

/** The blog-style table: one row per case and transport, ratios on each case's first row. */
export function renderTable(results: readonly Cell[]): string {
  const header = tableHeader(results);
  const labels = header.length - TABLE_HEADER.length + 5;
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i < labels ? '---' : '---:')).join('|')}|`];
  const seen = new Set<string>();
  for (const r of results) {
    const key = `${networkOf(r)}\u0000${runtimeOf(r)}\u0000${securityOf(r)}\u0000${r.variant}\u0000${r.case}`;
    const first = !seen.has(key);
    seen.add(key);
    const s = r.summary;
    const median = `${s?.noisy ? NOISY_MARK : ''}${ms(s?.median)}`;
    const cv = s ? `${(s.cv * 100).toFixed(1)}%` : '—';
    const cells = r.ok
      ? [median, ms(s?.mean), ms(s?.min), ms(s?.p95), ms(s?.max), ms(s?.stddev), cv, ci(s), ms(r.coldMs), bytes(r.bytes)]
      : [`FAILED: ${failedCellText(r)}`.replace(/\|/g, '\\|'), '', '', '', '', '', '', '', '', ''];
    lines.push(
      `| ${[
        ...placeLabels(results, r),
        r.variant,
        r.case,
        count(r.rows),
        count(r.requests),
        r.transport,
        ...cells,
        ms(r.blogMs),
        first ? ratio(grpcOverJson(results, r.case, r.variant, networkOf(r), runtimeOf(r), securityOf(r))) : '',
        first ? ratio(blogRatio(results, r.case)) : '',
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

function describePinning(doc: RunDocument): string {
  const deployed = describeDeployedApps(doc.settings, doc.provenance);
  if (deployed) return deployed;
  const pin = doc.provenance.pinning;
  if (pin?.pinned && pin.cores) {
    return `pinned with taskset: ${Object.entries(pin.cores).map(([app, cores]) => `${app} on CPU ${cores}`).join(', ')}`;
  }
  return `client, server-a and server-b share this machine's cores (not pinned${pin?.reason ? `: ${pin.reason}` : ''})`;
}

function describeMachine(doc: RunDocument): string {
  const client = doc.provenance.client ?? {};
  const packages = (client.packages ?? {}) as Record<string, string | null>;
  const cpu = `${String(client.cpuModel ?? 'unknown CPU')} × ${String(client.cpuCount ?? '?')}`;
  const versions = ['@nestjs/core', '@grpc/grpc-js', '@grpc/proto-loader', 'axios']
    .map((p) => `${p} ${packages[p] ?? '?'}`)
    .join(', ');
  // The Go reference's client reports its Go version (tools/go-reference info.go): "bare vs go" carries both runtimes.
  const go = Object.values(doc.provenance.clients ?? {}).find((c) => typeof c?.go === 'string')?.go;
  // With several runtimes the first client's Node is one of them: the runtime lines below name each.
  const runtimes = Object.keys(doc.provenance.runtimes ?? {});
  const node = runtimes.length > 1 ? `Node ${runtimes.join(', ')} (each below; the bench on ${String(doc.provenance.bench?.node ?? '?')})` : `Node ${String(client.node ?? '?')}`;
  return `${cpu}; ${node}${go ? `; Go reference ${String(go)}` : ''}; ${versions}`;
}

/** The footnote for noisy cells and outliers, or nothing when there are none. */
export function renderNotes(results: readonly Cell[]): string {
  const noisy = results.filter((r) => r.ok && r.summary?.noisy);
  const outliers = results.filter((r) => r.ok && (r.summary?.outliers.indices.length ?? 0) > 0);
  const lines: string[] = [];
  if (noisy.length > 0) {
    lines.push(
      `${NOISY_MARK} noisy: ${noisy.map((r) => `${r.case} ${r.transport} (${r.summary!.noise.join(', ')})`).join('; ')}. ` +
        'Read these medians to the nearest whole number at best, and prefer the CI.',
    );
  }
  if (outliers.length > 0) {
    lines.push(
      `Outliers (modified z-score > 3.5 on the MAD; kept in every statistic): ` +
        outliers.map((r) => `${r.case} ${r.transport}: ${r.summary!.outliers.values.map((v) => ms(v)).join(', ')} ms`).join('; ') +
        '.',
    );
  }
  return lines.join('\n\n');
}

/** The machine probe's range over the run: how much the machine itself moved while it ran. */
function describeProbe(doc: RunDocument): string {
  const readings = doc.results.flatMap((r) => (r.machineProbeMs ? [r.machineProbeMs.before, r.machineProbeMs.after] : []));
  if (readings.length === 0) return '';
  const low = Math.min(...readings);
  const high = Math.max(...readings);
  return (
    `- machine probe (fixed CPU work in the bench, timed before and after each case; lower is faster): ` +
    `${ms(low)}–${ms(high)} ms, the slowest reading ${((high / low - 1) * 100).toFixed(0)}% above the fastest`
  );
}

/** What else used the machine during the visits (issue #43), or nothing for a run from before it. */
function disturbanceLine(doc: RunDocument): string {
  const line = describeDisturbedVisits(doc.results);
  return line === null ? '' : `- disturbance: ${line.startsWith('0 of') ? line : `**${line}**`}`;
}

/** The section results.md opens with, and the terminal's last table (export/terminal.ts): winner, factor, why. */
export function renderVerdictSection(named: readonly Cell[]): string[] {
  return ['## Verdict: who wins, by how much, and why', '', renderVerdictMarkdown(verdict(named)), '', VERDICT_NOTE, ''];
}

/** results.md: what was run, on what, the table, and how to read it. */
export function renderMarkdown(doc: RunDocument): string {
  const settings = doc.settings;
  const commit = String(doc.provenance.gitCommit ?? 'unknown').slice(0, 12);
  const failed = doc.results.filter((r) => !r.ok).length;
  const reclaim = describeMemoryReclaim(doc.provenance.memoryReclaim);
  // Ablation variants (one tuning flipped) have their own table; every other section shows the named variants.
  const named = withoutAblations(doc.results);
  const map = decisionMap(named);
  return [
    `# gRPC vs JSON: ${String(settings.startedAt ?? '')}`,
    '',
    ...renderVerdictSection(named),
    ...renderRankingSection(named),
    ...renderAttributionSection(attribution(named), named),
    ...renderAblationSection(doc.results),
    ...renderPathCostSection(doc.results),
    ...renderPathCountersSection(doc.results),
    ...renderBrokersSection(doc.results, doc.provenance.networks),
    ...renderCellCountersSection(doc.results),
    ...renderTlsSection(doc.results),
    ...renderCpuProfileMarkdown(named),
    '## How the run was made',
    '',
    `- commit \`${commit}\`${doc.provenance.gitDirty ? ' (with uncommitted changes)' : ''}; preset \`${presetOf(settings)}\`; ` +
      `warm-up ${String(settings.warmup)} call(s) and ${String(settings.warmupMs ?? 0)} ms per case and transport; timed runs per case as in the table's n`,
    `- machine: ${describeMachine(doc)}`,
    `- ${describePinning(doc)}; times are measured inside the client`,
    `- repetitions of the transports interleaved (json, grpc, json, grpc, …) after each transport's cold call and warm-up; ${describeVisits(settings)}`,
    describeProbe(doc),
    disturbanceLine(doc),
    ...describeRuntimes(doc.provenance.runtimes).map((line) => `- runtime ${line}`),
    ...describeNetworks(doc.provenance.networks, doc.settings.clientUrl, doc.provenance).map((line) => `- network ${line}`),
    ...describePaths(doc.provenance.path).map((line) => `- path ${line}`),
    reclaim === null ? '' : `- memory reclaim: ${reclaim}`,
    doc.incomplete ? '- **incomplete run**: interrupted or failed before every case ran' : '',
    describeProfiledRun(settings) === null ? '' : `- **${describeProfiledRun(settings)}**`,
    failed > 0 ? `- **${failed} case(s) failed**, see the table` : '',
    '',
    ...(map ? ['## Decision map: who wins, by how much (JSON vs gRPC median)', '', renderDecisionMap(map), '', '## All cells', ''] : []),
    renderTable(doc.results),
    '',
    renderNotes(doc.results),
    '',
    named.some((r) => r.phases) ? '## Where the time goes (per call, mean)\n\n' + renderBreakdown(named) : '',
    '',
    new Set(named.map((r) => r.variant)).size > 1 ? '## Variants\n\n' + renderVariantRatios(named) : '',
    '',
    'How to read: times are per call (all `requests` fired at once and awaited together), measured in the client ' +
      'around the server-to-server call including decoding the reply, after the warm-up above (untimed calls on the ' +
      'same connection; `warmupMs` in results.json lists them). `cold` is one ' +
      'call on a brand-new connection (connection set-up included, as in the blog\'s first run). `response bytes` is ' +
      'one reply body: JSON text, or the protobuf message without gRPC framing. gRPC/JSON is the ratio of medians ' +
      '(> 1: gRPC slower); the blog\'s ratio of averages is beside it.',
    '',
  ]
    .filter((line, i, all) => line !== '' || all[i - 1] !== '')
    .join('\n');
}
