// The cells a run plans, as settings.plannedCells records them, and how messages name a cell: written while
// the run goes (run/), read by the estimate (measure/) and by completeness (analysis/).
import type { CellKey, PlannedCell, Visit } from './model';
import { cellKey, networkOf } from './results';

/** `network/variant case transport on Node N`: how messages name a cell. */
export function cellLabel(cell: Pick<CellKey, 'network' | 'runtime' | 'security' | 'variant' | 'case' | 'transport'>): string {
  const on = (cell.runtime === undefined ? '' : ` on Node ${cell.runtime}`) + (cell.security === undefined || cell.security === 'plain' ? '' : ` over ${cell.security}`);
  return `${networkOf(cell)}/${cell.variant} ${cell.case} ${cell.transport}${on}`;
}

/** Every cell of the plan, once, with its visits (a plan has one entry per visit and lists its transports). */
export function plannedCells(plan: readonly Visit[]): PlannedCell[] {
  const cells = new Map<string, PlannedCell>();
  for (const p of plan) {
    for (const transport of p.transports) {
      const cell = { network: p.network, runtime: p.runtime, security: p.security, variant: p.variant, case: p.record.id, transport, visits: p.visits };
      cells.set(cellKey(cell), cell);
    }
  }
  return [...cells.values()];
}
