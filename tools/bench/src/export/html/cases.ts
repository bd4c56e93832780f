// The document's results grouped the way the charts read them: one view per case, transports in order.
import { TRANSPORTS, type CaseResult } from '../../model';

export interface CaseView {
  id: string;
  rows: number;
  requests: number;
  /** The case's results, in TRANSPORTS order (then any other transport in document order). */
  cells: CaseResult[];
}

function transportRank(transport: string): number {
  const i = (TRANSPORTS as readonly string[]).indexOf(transport);
  return i === -1 ? TRANSPORTS.length : i;
}

/** One view per distinct case id, in the order the cases first appear in the document. */
export function groupByCase(results: readonly CaseResult[]): CaseView[] {
  const views = new Map<string, CaseView>();
  for (const r of results) {
    let view = views.get(r.case);
    if (!view) {
      view = { id: r.case, rows: r.rows, requests: r.requests, cells: [] };
      views.set(r.case, view);
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
