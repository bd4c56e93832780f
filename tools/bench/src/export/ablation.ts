// The ablation table (issue #18) as results.md and report.html print it: rows from ablation(), never
// recomputed here.
import { type Cell, ms } from '../model';
import { ablation, EFFECT_THRESHOLD, type AblationRow } from '../analysis';

export const ABLATION_HEADING = 'Ablation: each tuning measured alone';

export function ablationHeader(rows: readonly AblationRow[]): string[] {
  const byNetwork = new Set(rows.map((r) => r.network)).size > 1;
  return ['tuning', 'flipped from', ...(byNetwork ? ['network'] : []), 'case', 'transport', 'with ms', 'without ms', 'without ÷ with (95 % CI)', 'effect'];
}

export function ablationCells(rows: readonly AblationRow[], row: AblationRow): string[] {
  const byNetwork = new Set(rows.map((r) => r.network)).size > 1;
  const ratio = row.ratio === null ? '—' : `${row.ratio.toFixed(2)}×${row.ci ? ` (${row.ci.low.toFixed(2)}–${row.ci.high.toFixed(2)})` : ''}`;
  return [row.tuning, row.base, ...(byNetwork ? [row.network] : []), row.case, row.transport, ms(row.withMs), ms(row.withoutMs), ratio, row.effect];
}

export const ABLATION_NOTE =
  'Each row flips one tuning and nothing else: from tuned, the variant tuned-without-<tuning> switches it off; from ' +
  "blog, blog-with-<tuning> switches it on. With and without are that cell's medians; above 1 the tuning saves time. " +
  `Effect: "saves time" when the 95 % bootstrap CI of the ratio lies above ${EFFECT_THRESHOLD}, "costs time" below ` +
  `1/${EFFECT_THRESHOLD}, else no measurable effect; "fails without it" / "fails with it" when only one of the two cells ` +
  'succeeded (the failure is in the run\'s list of failures). Only the transports each tuning changes are run.';

/** results.md's section, or nothing when the run has no ablation variants. */
export function renderAblationSection(results: readonly Cell[]): string[] {
  const rows = ablation(results);
  if (rows.length === 0) return [];
  const header = ablationHeader(rows);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [`## ${ABLATION_HEADING}`, '', line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => line(ablationCells(rows, r))), '', ABLATION_NOTE, ''];
}
