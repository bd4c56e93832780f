// The verdict's words and tables: its rows (analysis/verdict.ts) as the cells results.md and report.html print.
import { ms } from '../model';
import { TIE_WITHIN, TRANSPORT_LABELS, type Verdict, type VerdictRow } from '../analysis';

/** "JSON", "gRPC", "tie" or "—". */
export function winnerLabel(row: VerdictRow): string {
  const w = row.cell.winner;
  return w === null ? '—' : w === 'tie' ? 'tie' : TRANSPORT_LABELS[w];
}

/** "3.06× (2.71–3.40)": the factor with its range when both medians have a CI. */
export function factorLabel(row: VerdictRow): string {
  if (row.factor === null) return '—';
  const range = row.range ? ` (${row.range.low.toFixed(2)}–${row.range.high.toFixed(2)})` : '';
  return `${row.factor.toFixed(2)}×${range}`;
}

/** The verdict table's columns, shared by Markdown and HTML. */
export function verdictHeader(v: Verdict): string[] {
  return [...(v.byVariant ? ['variant'] : []), 'case', ...(v.byNetwork ? ['network'] : []), ...(v.byRuntime ? ['node'] : []), ...(v.bySecurity ? ['security'] : []), 'winner', 'by (slower ÷ faster median, CI range)', 'JSON vs gRPC median ms', 'why (the largest difference)'];
}

/** One row's cells, in verdictHeader's order. */
export function verdictCells(v: Verdict, row: VerdictRow): string[] {
  return [
    ...(v.byVariant ? [row.variant] : []),
    row.case,
    ...(v.byNetwork ? [row.network] : []),
    ...(v.byRuntime ? [`Node ${row.runtime}`] : []),
    ...(v.bySecurity ? [row.security] : []),
    winnerLabel(row),
    factorLabel(row),
    `${ms(row.cell.json)} vs ${ms(row.cell.grpc)}`,
    row.why,
  ];
}

/** What the table says, under it (Markdown and HTML). */
export const VERDICT_NOTE =
  `Winner: the transport with the lower median, a tie within ${TIE_WITHIN}× either way. The range is the factor's bounds ` +
  'from the two medians’ 95 % confidence intervals (both hold at once with ≥ 90 % probability); one that reaches below 1× means ' +
  'this run cannot tell the two apart. Why: the part of a call (server build, server encode, client decode, or the remainder: ' +
  'framework, transport and waiting) whose mean time differs most between the two, from the phases the processes measured; ' +
  'then the bytes of one call, JSON vs gRPC.';

/** The verdict as a Markdown table. */
export function renderVerdictMarkdown(v: Verdict): string {
  const header = verdictHeader(v);
  const row = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [row(header), `|${header.map(() => '---').join('|')}|`, ...v.rows.map((r) => row(verdictCells(v, r)))].join('\n');
}
