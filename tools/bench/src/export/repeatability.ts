// A series of runs as a table (bench:compare --series): per case, each run's winner and factor, the range
// over the series and how many consecutive pairs agree; the README's and docs/repeatability.md's table.
import { REPEAT_WITHIN, TIE_WITHIN, TRANSPORT_LABELS, phaseMoveText, type RepeatabilityRow, type SeriesPoint } from '../analysis';
import { markdownSection } from './path-cost';

/** A ratio (gRPC ÷ JSON) as its winner and factor (slower ÷ faster): who reads it, and by how much. */
function sideOf(ratio: number): { who: string; factor: number } {
  const factor = Math.max(ratio, 1 / ratio);
  return { who: factor <= TIE_WITHIN ? 'tie' : ratio > 1 ? TRANSPORT_LABELS.json : TRANSPORT_LABELS.grpc, factor };
}

const digits = (factor: number) => (factor < 10 ? factor.toFixed(2) : factor.toFixed(1));

/** "JSON 2.29×", "gRPC 11.5×", "tie 1.04×" or "—", from gRPC ÷ JSON. */
export function seriesFactor(point: Pick<SeriesPoint, 'ratio'>): string {
  if (point.ratio === null) return '—';
  const { who, factor } = sideOf(point.ratio);
  return `${who} ${digits(factor)}×`;
}

/** "JSON 2.1–2.4×", "gRPC 2.9–11.5×" or "gRPC 1.2× – JSON 1.3×" when the winner changes within the range. */
export function seriesRange(row: Pick<RepeatabilityRow, 'range'>): string {
  if (!row.range) return '—';
  const [low, high] = [sideOf(row.range.low), sideOf(row.range.high)];
  if (low.who !== high.who) return `${seriesFactor({ ratio: row.range.low })} – ${seriesFactor({ ratio: row.range.high })}`;
  // Both on one side: the factors from the smaller to the larger.
  const [small, large] = [low.factor, high.factor].sort((a, b) => a - b);
  return small === large ? seriesFactor({ ratio: row.range.low }) : `${low.who} ${digits(small)}–${digits(large)}×`;
}

/** The series as a Markdown table, with the run names and what "agree" means under it. */
export function renderRepeatability(rows: readonly RepeatabilityRow[], runs: readonly string[]): string {
  const several = (pick: (r: RepeatabilityRow) => string) => new Set(rows.map(pick)).size > 1;
  const cols = { network: several((r) => r.network), runtime: several((r) => r.runtime), security: several((r) => r.security) };
  const header = ['variant', 'case', ...(cols.network ? ['network'] : []), ...(cols.runtime ? ['node'] : []), ...(cols.security ? ['security'] : []), ...runs.map((_, i) => `run ${i + 1}`), 'range', `pairs within ${Math.round(REPEAT_WITHIN * 100)} %`, 'modes, and where the time moved in a pair that disagrees'];
  const body = rows.map((r) => [
    r.variant,
    r.case,
    ...(cols.network ? [r.network] : []),
    ...(cols.runtime ? [`Node ${r.runtime}`] : []),
    ...(cols.security ? [r.security] : []),
    ...runs.map((name) => seriesFactor(r.points.find((p) => p.run === name) ?? { ratio: null })),
    seriesRange(r),
    `${r.pairsAgreeing} of ${r.pairs}${r.pairsUnexplained > 0 ? ` (${r.pairsUnexplained} unexplained)` : ''}`,
    modesText(r, runs),
  ]);
  const names = runs.map((name, i) => `run ${i + 1} = \`${name}\``).join(', ');
  const note =
    `Runs, oldest first: ${names}. Factor: the slower median ÷ the faster (gRPC ÷ JSON read as its winner; a tie within ${TIE_WITHIN}×). ` +
    `A pair agrees when the two runs' gRPC/JSON ratios differ by at most ${Math.round(REPEAT_WITHIN * 100)} %. For a pair that does not and has ` +
    "no mode note, the phase of either transport's calls that moved the most (mean ms per call); the pair is unexplained when no phase " +
    "carries at least half of its transport's change.";
  return markdownSection(REPEATABILITY_HEADING, note, header, header.length, body.map((cells) => cells.map((c) => c.replace(/\|/g, '\\|')))).join('\n');
}

export const REPEATABILITY_HEADING = 'What a series of runs gave, case by case';

function modesText(row: RepeatabilityRow, runs: readonly string[]): string {
  const noted = row.points.filter((p) => p.modeNotes.length > 0);
  const modes = noted.length === 0 ? ['one mode in every run'] : noted.map((p) => `run ${runs.indexOf(p.run) + 1}: ${p.modeNotes.join('; ')}`);
  return [...modes, ...row.moves.map(phaseMoveText)].join(' · ');
}
