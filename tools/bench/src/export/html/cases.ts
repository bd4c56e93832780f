// The document's results grouped the way the charts read them: one view per case, transports in order.
import { TRANSPORTS, type Cell, anyRuntimes, networkOf, runtimeOf, securitiesOf, securityOf } from '../../model';

export interface CaseView {
  id: string;
  rows: number;
  requests: number;
  /** The case's results, in TRANSPORTS order (then any other transport in document order). */
  cells: Cell[];
}

function transportRank(transport: string): number {
  const i = (TRANSPORTS as readonly string[]).indexOf(transport);
  return i === -1 ? TRANSPORTS.length : i;
}

/**
 * One view per distinct case id, in the order the cases first appear in the document. When a run has
 * several variants (or networks, or runtimes), each variant's (network's, runtime's) case is a view of
 * its own, named "①-2 · tuned" ("①-2 · tuned · region · Node 20").
 */
export function groupByCase(results: readonly Cell[]): CaseView[] {
  const views = new Map<string, CaseView>();
  const multiVariant = new Set(results.map((r) => r.variant)).size > 1;
  const multiNetwork = new Set(results.map(networkOf)).size > 1;
  const multiRuntime = anyRuntimes(results);
  const multiSecurity = securitiesOf(results).length > 1;
  for (const r of results) {
    const id = [r.case, ...(multiVariant ? [r.variant] : []), ...(multiNetwork ? [networkOf(r)] : []), ...(multiRuntime ? [`Node ${runtimeOf(r)}`] : []), ...(multiSecurity ? [securityOf(r)] : [])].join(' · ');
    let view = views.get(id);
    if (!view) {
      view = { id, rows: r.rows, requests: r.requests, cells: [] };
      views.set(id, view);
    }
    view.cells.push(r);
  }
  for (const view of views.values()) {
    view.cells = view.cells
      .map((cell, i) => ({ cell, i }))
      .sort((a, b) => transportRank(a.cell.transport) - transportRank(b.cell.transport) || a.i - b.i)
      .map(({ cell }) => cell);
  }
  return [...views.values()];
}

/** "10,000 rows × 1 request" */
export function describeShape(view: Pick<CaseView, 'rows' | 'requests'>): string {
  const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(view.rows, 'row')} × ${plural(view.requests, 'request')}`;
}
