// Every transport of a case ranked (analysis/ranking.ts) in results.md's and ranking.csv's words;
// report.html draws the same rows (html/ranking.ts).
import { count, ms, type Cell } from '../model';
import { ranking, TIE_WITHIN, TRANSPORT_LABELS, type RankedCell, type RankingGroup } from '../analysis';
import { cell as csvCell } from './csv';
import { markdownSection } from './path-cost';

export const RANKING_HEADING = 'Every transport ranked, per case';
export const RANKING_NOTE =
  'Where a case ran over three transports or more: its cells from the fastest median to the slowest. × the fastest: ' +
  "this median ÷ the fastest's, with its bounds from both medians' 95 % CIs (both hold at once with ≥ 90 % probability; " +
  `a lower bound below 1× means this run cannot tell the two apart); "tie" within ${TIE_WITHIN}× of the fastest. CPU: what ` +
  "1,000 timed calls cost the machine: client + server, and the broker's own process for a transport through one (its part " +
  'in brackets). A failed cell has no rank and says why (a broker refusing a message gives its own reason).';
export const RANKING_HEADER = ['network', 'variant', 'case', 'rank', 'transport', 'median ms', '× the fastest (CI range)', 'CPU ms / 1,000 calls (broker)', 'failed'];
/** Columns from here on are numbers, but for the last (a reason). */
export const RANKING_FIRST_NUMBER = 5;

const factorText = (c: RankedCell) => {
  if (c.factor === null) return '–';
  if (c.rank === 1) return 'fastest';
  const range = c.range ? ` (${c.range.low.toFixed(2)}–${c.range.high.toFixed(2)})` : '';
  return `${c.tiesFastest ? 'tie ' : ''}${c.factor.toFixed(2)}×${range}`;
};

const cpuText = (c: RankedCell) =>
  c.cpuPer1000CallsMs === null ? '–' : `${count(Math.round(c.cpuPer1000CallsMs))}${c.brokerCpuPer1000CallsMs === null ? '' : ` (${count(Math.round(c.brokerCpuPer1000CallsMs))})`}`;

/** A failure's reason cut to one table cell's length; the whole of it is in results.json and the cells' table. */
export function shortReason(reason: string, max = 160): string {
  const flat = reason.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** One ranked cell's row, in RANKING_HEADER's order (results.md and report.html alike). */
export function rankingCells(g: RankingGroup, c: RankedCell): string[] {
  return [g.place, g.variant, g.case, c.rank === null ? '–' : String(c.rank), TRANSPORT_LABELS[c.transport], c.medianMs === null ? '–' : ms(c.medianMs), factorText(c), cpuText(c), c.failure === null ? '' : shortReason(c.failure)];
}

/** results.md's section, empty when no case ran over three transports or more. */
export function renderRankingSection(results: readonly Cell[]): string[] {
  const groups = ranking(results);
  if (groups.length === 0) return [];
  return markdownSection(RANKING_HEADING, RANKING_NOTE, RANKING_HEADER, RANKING_FIRST_NUMBER, groups.flatMap((g) => g.cells.map((c) => rankingCells(g, c))));
}

const CSV_COLUMNS = ['network', 'variant', 'case', 'rank', 'transport', 'median_ms', 'factor_vs_fastest', 'factor_ci_low', 'factor_ci_high', 'ties_fastest', 'cpu_ms_per_1000_calls', 'broker_cpu_ms_per_1000_calls', 'failure'];

/** ranking.csv: one row per ranked or failed cell, the figures unrounded. */
export function renderRankingCsv(results: readonly Cell[]): string {
  const rows = ranking(results).flatMap((g) =>
    g.cells.map((c) => [g.place, g.variant, g.case, c.rank, c.transport, c.medianMs, c.factor, c.range?.low ?? null, c.range?.high ?? null, c.factor === null ? null : c.tiesFastest, c.cpuPer1000CallsMs, c.brokerCpuPer1000CallsMs, c.failure]),
  );
  return [CSV_COLUMNS.join(','), ...rows.map((row) => row.map(csvCell).join(','))].join('\n') + '\n';
}

/** Whether a run has a ranking (ranking.csv is written only then). */
export const hasRanking = (results: readonly Cell[]) => ranking(results).length > 0;

/** The terminal's lines: per place, variant and case, the transports fastest first ("Nest TCP 0.556 ms, gRPC 1.83×, …; failed: Nest NATS"). */
export function rankingTerminalLines(results: readonly Cell[]): string[] {
  return ranking(results).map((g) => {
    const ranked = g.cells.filter((c) => c.rank !== null).map((c) => (c.rank === 1 ? `${TRANSPORT_LABELS[c.transport]} ${ms(c.medianMs)} ms` : `${TRANSPORT_LABELS[c.transport]} ${c.factor!.toFixed(2)}×`));
    const failed = g.cells.filter((c) => c.rank === null).map((c) => TRANSPORT_LABELS[c.transport]);
    return `${g.place} ${g.variant} ${g.case}: ${ranked.join(', ') || 'none ok'}${failed.length ? `; failed: ${failed.join(', ')}` : ''}`;
  });
}
