import type { CaseResult } from '../model';
import { ms, ratio } from './format';

function share(part: number | null, total: number): string {
  if (part === null) return '—';
  return `${ms(part)} (${Math.round((100 * part) / total)}%)`;
}

/**
 * Where the time of a call goes, per cell: the servers' own timings of building and encoding the
 * rows, the client's timing of decoding them, and what is left (framework, transport, waiting).
 * Parallel calls sum every request's phases, so a phase can exceed the wall time it overlaps.
 */
export function renderBreakdown(results: readonly CaseResult[]): string {
  const rows = results.filter((r) => r.ok && r.phases);
  if (rows.length === 0) return '';
  return [
    '| variant | case | transport | mean ms | server build ms | server encode ms | client decode ms | remainder ms (framework + transport + waiting) |',
    '|---|---|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const p = r.phases!;
      return `| ${r.variant} | ${r.case} | ${r.transport} | ${ms(p.totalMs)} | ${share(p.serverBuildMs, p.totalMs)} | ${share(p.serverEncodeMs, p.totalMs)} | ${share(p.clientDecodeMs, p.totalMs)} | ${share(p.remainderMs, p.totalMs)} |`;
    }),
  ].join('\n');
}

function median(results: readonly CaseResult[], variant: string, caseId: string, transport: string): number | null {
  return results.find((r) => r.variant === variant && r.case === caseId && r.transport === transport && r.ok)?.summary?.median ?? null;
}

function over(a: number | null, b: number | null): number | null {
  return a !== null && b !== null && b > 0 ? a / b : null;
}

/**
 * The variants side by side: medians, and the ratios that answer the questions — how much the
 * framework costs (blog ÷ bare), how much tuning recovers (tuned ÷ blog), what is left (tuned ÷ bare).
 */
export function renderVariantRatios(results: readonly CaseResult[]): string {
  const variants = [...new Set(results.map((r) => r.variant))];
  if (variants.length < 2) return '';
  const cells = [...new Map(results.map((r) => [`${r.case}\u0000${r.transport}`, r])).values()];
  const pairs = [
    ['blog', 'bare'],
    ['tuned', 'blog'],
    ['tuned', 'bare'],
  ].filter(([a, b]) => variants.includes(a) && variants.includes(b));
  return [
    `| case | transport | ${variants.map((v) => `${v} median ms`).join(' | ')} | ${pairs.map(([a, b]) => `${a} ÷ ${b}`).join(' | ')} |`,
    `|---|---|${variants.map(() => '---:').join('|')}|${pairs.map(() => '---:').join('|')}|`,
    ...cells.map((c) => {
      const medians = variants.map((v) => median(results, v, c.case, c.transport));
      const ratios = pairs.map(([a, b]) => ratio(over(median(results, a, c.case, c.transport), median(results, b, c.case, c.transport))));
      return `| ${c.case} | ${c.transport} | ${medians.map((m) => ms(m)).join(' | ')} | ${ratios.join(' | ')} |`;
    }),
  ].join('\n');
}
