// Issue #18, "every tuning measured alone": for each ablation variant of a run (tuned-without-<tuning>,
// blog-with-<tuning>), the time with and without its one tuning, per network, case and transport. One
// pure function over the results; results.md and report.html print its rows, never their own.
import { ablationOf } from '@bench/config';
import type { Cell } from '../model';
import { cellKey, placeLabeller } from '../model';
import { ratioOfMediansCi, type RatioCi } from '../model';

/** Above this ratio (CI's low end) a tuning saves time; below its inverse (CI's high end) it costs time. */
export const EFFECT_THRESHOLD = 1.05;

/** Measured both ways: saves, costs, or neither; one way only: the other side's cell failed; else not measured. */
export type Effect = 'saves time' | 'costs time' | 'no measurable effect' | 'fails without it' | 'fails with it' | 'not measured';

const EFFECTS: readonly Effect[] = ['saves time', 'costs time', 'no measurable effect', 'fails without it', 'fails with it', 'not measured'];

export interface AblationRow {
  tuning: string;
  /** tuned: the tuning switched off from tuned; blog: switched on from the blog's configuration. */
  base: 'tuned' | 'blog';
  network: string;
  case: string;
  transport: string;
  /** Median ms with the tuning on (tuned, or blog-with-<tuning>) and off (tuned-without-<tuning>, or blog). */
  withMs: number | null;
  withoutMs: number | null;
  /** withoutMs ÷ withMs: above 1 the tuning saves time. Null when either cell is missing or failed. */
  ratio: number | null;
  /** Bootstrap 95 % CI of that ratio from the two cells' timed calls. */
  ci: RatioCi | null;
  effect: Effect;
}

function effectOf(ratio: number | null, ci: RatioCi | null): Effect {
  if (ratio === null) return 'not measured';
  const low = ci?.low ?? ratio;
  const high = ci?.high ?? ratio;
  if (low > EFFECT_THRESHOLD) return 'saves time';
  if (high < 1 / EFFECT_THRESHOLD) return 'costs time';
  return 'no measurable effect';
}

const usable = (cell: Cell | undefined): cell is Cell => cell !== undefined && cell.ok && cell.summary !== null;
const failed = (cell: Cell | undefined): boolean => cell !== undefined && !cell.ok;

/**
 * A cell that fails on one side only is the tuning's effect too (listen-backlog: without it, TLS bursts
 * are reset): said as such rather than "not measured".
 */
function oneSidedEffect(withCell: Cell | undefined, withoutCell: Cell | undefined): Effect {
  if (usable(withCell) && failed(withoutCell)) return 'fails without it';
  if (failed(withCell) && usable(withoutCell)) return 'fails with it';
  return 'not measured';
}

/** One row per cell of an ablation variant, beside the cell of its base with the same network, case and transport (document order). */
export function ablation(results: readonly Cell[]): AblationRow[] {
  const byKey = new Map(results.map((r) => [cellKey(r), r]));
  const placeOf = placeLabeller(results);
  return results.flatMap((cell) => {
    const flipped = ablationOf(cell.variant);
    if (!flipped) return [];
    const baseCell = byKey.get(cellKey({ ...cell, variant: flipped.base }));
    const [withCell, withoutCell] = flipped.base === 'tuned' ? [baseCell, cell] : [cell, baseCell];
    const both = usable(withCell) && usable(withoutCell);
    const ratio = both ? withoutCell.summary!.median / withCell.summary!.median : null;
    const ci = both ? ratioOfMediansCi(withoutCell.samplesMs, withCell.samplesMs) : null;
    return [
      {
        tuning: flipped.tuning.id,
        base: flipped.base,
        network: placeOf(cell),
        case: cell.case,
        transport: cell.transport,
        withMs: usable(withCell) ? withCell.summary!.median : null,
        withoutMs: usable(withoutCell) ? withoutCell.summary!.median : null,
        ratio,
        ci,
        effect: both ? effectOf(ratio, ci) : oneSidedEffect(withCell, withoutCell),
      },
    ];
  });
}

/** Per tuning and base, the cases where it saves time, costs time, or measures nothing: the README's one line per tuning. */
export function ablationSummary(rows: readonly AblationRow[]): Array<{ tuning: string; base: 'tuned' | 'blog'; byEffect: Record<Effect, string[]> }> {
  const groups = new Map<string, { tuning: string; base: 'tuned' | 'blog'; byEffect: Record<Effect, string[]> }>();
  for (const row of rows) {
    const key = `${row.base} ${row.tuning}`;
    const group = groups.get(key) ?? { tuning: row.tuning, base: row.base, byEffect: Object.fromEntries(EFFECTS.map((e) => [e, [] as string[]])) as Record<Effect, string[]> };
    const where = row.network === 'loopback' ? `${row.case} ${row.transport}` : `${row.case} ${row.transport} @${row.network}`;
    group.byEffect[row.effect].push(where);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The cells of the named variants only: what the verdict, the maps, the variants table and the charts show (the ablation table shows the rest). */
export function withoutAblations(results: readonly Cell[]): Cell[] {
  return results.filter((r) => ablationOf(r.variant) === null);
}
