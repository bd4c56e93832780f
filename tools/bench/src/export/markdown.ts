import type { CaseResult, RunDocument } from '../model';
import { grpcOverJson } from '../results';
import { bytes, count, ms, ratio } from './format';

const HEADER = [
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
  'cold ms',
  'response bytes',
  'blog avg ms',
  'gRPC/JSON',
  'blog gRPC/JSON',
];

function blogRatio(results: readonly CaseResult[], caseId: string): number | null {
  const blog = (t: string) => results.find((r) => r.case === caseId && r.transport === t)?.blogMs ?? null;
  const json = blog('json');
  const grpc = blog('grpc');
  return json !== null && grpc !== null ? grpc / json : null;
}

/** The blog-style table: one row per case and transport, ratios on each case's first row. */
export function renderTable(results: readonly CaseResult[]): string {
  const lines = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map((_, i) => (i < 4 ? '---' : '---:')).join('|')}|`];
  const seen = new Set<string>();
  for (const r of results) {
    const first = !seen.has(r.case);
    seen.add(r.case);
    const s = r.summary;
    const cells = r.ok
      ? [ms(s?.median), ms(s?.mean), ms(s?.min), ms(s?.p95), ms(s?.max), ms(s?.stddev), ms(r.coldMs), bytes(r.bytes)]
      : [`FAILED: ${r.error ?? 'unknown error'}`.replace(/\|/g, '\\|'), '', '', '', '', '', '', ''];
    lines.push(
      `| ${[
        r.case,
        count(r.rows),
        count(r.requests),
        r.transport,
        ...cells,
        ms(r.blogMs),
        first ? ratio(grpcOverJson(results, r.case)) : '',
        first ? ratio(blogRatio(results, r.case)) : '',
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

function describeMachine(doc: RunDocument): string {
  const client = (doc.provenance.client ?? {}) as Record<string, unknown>;
  const packages = (client.packages ?? {}) as Record<string, string | null>;
  const cpu = `${String(client.cpuModel ?? 'unknown CPU')} × ${String(client.cpuCount ?? '?')}`;
  const versions = ['@nestjs/core', '@grpc/grpc-js', '@grpc/proto-loader', 'axios']
    .map((p) => `${p} ${packages[p] ?? '?'}`)
    .join(', ');
  return `${cpu}; Node ${String(client.node ?? '?')}; ${versions}`;
}

/** results.md: what was run, on what, the table, and how to read it. */
export function renderMarkdown(doc: RunDocument): string {
  const settings = doc.settings;
  const commit = String(doc.provenance.gitCommit ?? 'unknown').slice(0, 12);
  const failed = doc.results.filter((r) => !r.ok).length;
  return [
    `# gRPC vs JSON: ${String(settings.startedAt ?? '')}`,
    '',
    `- commit \`${commit}\`${doc.provenance.gitDirty ? ' (with uncommitted changes)' : ''}; profile \`${String(settings.profile)}\`; ` +
      `warm-up ${String(settings.warmup)} call(s) per case; timed runs per case as in the table's n`,
    `- machine: ${describeMachine(doc)}`,
    `- client, server-a and server-b share this machine's cores (not pinned); times are measured inside the client`,
    doc.incomplete ? '- **incomplete run**: interrupted or failed before every case ran' : '',
    failed > 0 ? `- **${failed} case(s) failed**, see the table` : '',
    '',
    renderTable(doc.results),
    '',
    'How to read: times are per call (all `requests` fired at once and awaited together), measured in the client ' +
      'around the server-to-server call including decoding the reply, after one untimed warm-up call. `cold` is one ' +
      'call on a brand-new connection (connection set-up included, as in the blog\'s first run). `response bytes` is ' +
      'one reply body: JSON text, or the protobuf message without gRPC framing. gRPC/JSON is the ratio of medians ' +
      '(> 1: gRPC slower); the blog\'s ratio of averages is beside it.',
    '',
  ]
    .filter((line, i, all) => line !== '' || all[i - 1] !== '')
    .join('\n');
}
