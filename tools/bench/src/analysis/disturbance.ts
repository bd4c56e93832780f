// The run's disturbed visits (issue #43), read from its cells: each visit once (every transport's cell of a
// visit keeps the same record), and the ones above DISTURBED_SHARE. Written by no run.
import { isDisturbed, networkOf, runtimeOf, securityOf, type Cell, type VisitDisturbance } from '../model';

/** One visit as the reports list it: where it ran, and what else used the machine meanwhile. */
export interface VisitOfRun extends VisitDisturbance {
  network: string;
  runtime: string;
  security: string;
  variant: string;
  case: string;
  disturbed: boolean;
}

/** Every visit the run recorded a disturbance for, once each, in the results' order; none for a run from before issue #43. */
export function visitsOfRun(results: readonly Pick<Cell, 'network' | 'runtime' | 'security' | 'variant' | 'case' | 'disturbance'>[]): VisitOfRun[] {
  const seen = new Map<string, VisitOfRun>();
  for (const cell of results) {
    for (const d of cell.disturbance ?? []) {
      if (!d) continue;
      const place = { network: networkOf(cell), runtime: runtimeOf(cell), security: securityOf(cell), variant: cell.variant, case: cell.case };
      const key = JSON.stringify([place, d.startedAt, d.visit, d.fork]);
      if (!seen.has(key)) seen.set(key, { ...place, ...d, disturbed: isDisturbed(d) });
    }
  }
  return [...seen.values()];
}

/** A cell's visits that were disturbed (1-based visit numbers as recorded). */
export function disturbedVisitsOf(cell: Pick<Cell, 'disturbance'>): VisitDisturbance[] {
  return (cell.disturbance ?? []).filter((d): d is VisitDisturbance => d !== null && isDisturbed(d));
}
