// Whether a run measured everything it planned, and if not, which cells it lacks: what bench:compare
// checks before it sets one run against another (a run killed mid-way is not a baseline).
import type { RunDocument } from '../model';
import { cellLabel, cellKey } from '../model';

export interface Completeness {
  complete: boolean;
  /** Planned cells without any result, as labels (`loopback/blog ①-1 json`). */
  missing: string[];
  /** Planned cells with fewer visits than planned: `label (2 of 5 visits)`. */
  short: string[];
  /** Set when the run cannot say which cells it lacks (written before settings.plannedCells). */
  unknown: string | null;
}

/**
 * What a run lacks. A run marks itself incomplete from its start and clears the mark only at its end,
 * so a killed run says so; runs since settings.plannedCells also say which cells, and which got fewer
 * visits than planned (settings.visitsDone). A variant the run skipped (not built) was never to run.
 */
export function completenessOf(doc: Pick<RunDocument, 'incomplete' | 'settings' | 'results'>): Completeness {
  const planned = doc.settings.plannedCells;
  if (!Array.isArray(planned)) {
    const unknown = doc.incomplete ? 'this run was written before runs recorded their plan (settings.plannedCells): which cells are missing is not known' : null;
    return { complete: !doc.incomplete, missing: [], short: [], unknown };
  }
  const skipped = doc.settings.skippedVariants ?? {};
  const visitsDone = doc.settings.visitsDone;
  const measured = new Set(doc.results.map((r) => cellKey(r)));
  const missing: string[] = [];
  const short: string[] = [];
  for (const cell of planned.filter((c) => !(c.variant in skipped))) {
    const label = cellLabel(cell);
    if (!measured.has(cellKey(cell))) missing.push(label);
    else if (visitsDone && (visitsDone[label] ?? 0) < cell.visits) short.push(`${label} (${visitsDone[label] ?? 0} of ${cell.visits} visits)`);
  }
  return { complete: !doc.incomplete && missing.length === 0 && short.length === 0, missing, short, unknown: null };
}

/** One paragraph on what an incomplete run lacks, for a refusal or a warning. */
export function describeIncomplete(name: string, c: Completeness): string {
  const list = (labels: string[]) => (labels.length > 12 ? `${labels.slice(0, 12).join(', ')} and ${labels.length - 12} more` : labels.join(', '));
  const parts = [`${name} is incomplete (it stopped before every planned visit ran)`];
  if (c.missing.length > 0) parts.push(`${c.missing.length} cell(s) missing: ${list(c.missing)}`);
  if (c.short.length > 0) parts.push(`${c.short.length} cell(s) with fewer visits than planned: ${list(c.short)}`);
  if (c.unknown) parts.push(c.unknown);
  return parts.join('; ');
}
