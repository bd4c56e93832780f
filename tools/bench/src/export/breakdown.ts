// The breakdown's tables in Markdown: where a call's time goes (phaseParts) and the variants' ratios
// (variantRatios), both computed in analysis/breakdown.ts.
import { ms, ratio, type Cell } from '../model';
import { phaseParts, variantRatios, type PhasePart } from '../analysis';

function share(part: PhasePart, totalMs: number, gcMs: number | null | undefined): string {
  if (part.ms === null) return '—';
  const gc = typeof gcMs === 'number' ? `; GC ${ms(gcMs)}` : '';
  return `${ms(part.ms)} (${Math.round((100 * part.ms) / totalMs)}%${gc})`;
}

/**
 * Where the time of a call goes, per cell: the servers' own timings of building and encoding the
 * rows (with the GC pauses inside them, where the server reports its pauses), the client's timing of
 * decoding them, and what is left (framework, transport, waiting). Parallel calls sum every request's
 * phases, so a phase can exceed the wall time it overlaps.
 */
export function renderBreakdown(results: readonly Cell[]): string {
  const rows = results.filter((r) => r.ok && r.phases);
  if (rows.length === 0) return '';
  return [
    '| variant | case | transport | mean ms | server build ms | server encode ms | client decode ms | remainder ms (framework + transport + waiting) |',
    '|---|---|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const p = r.phases!;
      const gc = { build: p.serverBuildGcMs, encode: p.serverEncodeGcMs } as Partial<Record<PhasePart['phase'], number | null>>;
      return `| ${r.variant} | ${r.case} | ${r.transport} | ${ms(p.totalMs)} | ${phaseParts(p).map((part) => share(part, p.totalMs, gc[part.phase])).join(' | ')} |`;
    }),
  ].join('\n');
}

/** The variants table in Markdown (see variantRatios); empty with fewer than two variants. */
export function renderVariantRatios(results: readonly Cell[]): string {
  const table = variantRatios(results);
  if (!table) return '';
  const { variants, pairs } = table;
  const cells = (values: string[]) => values.map((v) => ` ${v} |`).join('');
  const byNetwork = table.networks.length > 1;
  return [
    `|${byNetwork ? ' network |' : ''} case | transport |${cells(variants.map((v) => `${v} median ms`))}${cells(pairs.map(([a, b]) => `${a} ÷ ${b}`))}`,
    `|${byNetwork ? '---|' : ''}---|---|${[...variants, ...pairs].map(() => '---:|').join('')}`,
    ...table.rows.map(
      (row) => `|${byNetwork ? ` ${row.network} |` : ''} ${row.case} | ${row.transport} |${cells(row.medians.map((m) => ms(m)))}${cells(row.ratios.map(ratio))}`,
    ),
  ].join('\n');
}
