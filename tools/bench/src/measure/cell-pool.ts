// A case run in several visits comes back one raw result per visit and transport; the pool keeps one
// cell per (network, variant, case, transport), each the sum of its visits so far, in the order a
// reader expects. The runner hands it visits; the exporters read its cells.
import { type RawResult, cellKey } from '../model';
import { inPlanOrder, mergeVisits } from './visits';

/** The order cells are listed in: as the options list networks, variants, cases and transports. */
export interface CellOrder {
  networks: readonly string[];
  /** Runtimes (--node) within each network; absent: one runtime. */
  runtimes?: readonly string[];
  /** Security modes (--security) within each runtime; absent: plain. */
  securities?: readonly string[];
  variants: readonly string[];
  cases: readonly string[];
  transports: readonly string[];
}

export class CellPool {
  private readonly cells = new Map<string, { raw: RawResult; visits: number }>();

  constructor(private readonly order: CellOrder) {}

  /** One more visit's results: each joins its cell (a cell appears with its first visit and grows with each later one). */
  add(raws: readonly RawResult[]): void {
    for (const raw of raws) {
      const key = cellKey(raw);
      const sofar = this.cells.get(key);
      this.cells.set(key, sofar ? { raw: mergeVisits(sofar.raw, raw, sofar.visits), visits: sofar.visits + 1 } : { raw, visits: 1 });
    }
  }

  /** Every cell so far, pooled over its visits, in plan order. */
  results(): RawResult[] {
    const { networks, runtimes, securities, variants, cases, transports } = this.order;
    return inPlanOrder([...this.cells.values()].map((cell) => cell.raw), networks, variants, cases, transports, runtimes, securities);
  }
}
