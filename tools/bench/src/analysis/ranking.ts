// Every transport of a case ranked (issue #42, item 7): where a run measured a case over three transports
// or more (Nest's brokers beside JSON and gRPC), its cells from the fastest median to the slowest, each
// with its factor against the fastest and that factor's bounds from both medians' 95 % CIs, what 1,000
// calls cost the machine's CPU (the apps, and the broker a brokered call went through), and the cells that
// failed with their reason. The verdict compares JSON with gRPC; this is the answer to "which of them all".
import type { Cell, MedianCi, Transport } from '../model';
import { placeLabeller } from '../model';
import { brokerRow } from './broker-rows';
import { TIE_WITHIN } from './decision-map';
import { failedCellText } from './path-counter-rows';

/** A case is ranked when a run measured it over this many transports or more (two are the verdict's). */
export const RANKING_MIN_TRANSPORTS = 3;

export interface RankedCell {
  transport: Transport;
  /** 1: the fastest median; null: the cell failed or has no timed calls. */
  rank: number | null;
  medianMs: number | null;
  /** This median ÷ the fastest's (1 for the fastest); null for a failed cell. */
  factor: number | null;
  /** The factor's bounds from both medians' 95 % CIs (this one's low ÷ the fastest's high, high ÷ low); null for the fastest or without CIs. */
  range: { low: number; high: number } | null;
  /** Within TIE_WITHIN of the fastest's median. */
  tiesFastest: boolean;
  /** Apps + broker CPU per 1,000 timed calls (a direct transport's: its apps'); null: not reported. */
  cpuPer1000CallsMs: number | null;
  /** The broker's part of it; null: a direct transport, or the broker was not read. */
  brokerCpuPer1000CallsMs: number | null;
  /** Why the cell failed (with the listen queue's counts when they explain it); null: it did not. */
  failure: string | null;
}

export interface RankingGroup {
  /** Its network, with the runtime and security mode when the run has several. */
  place: string;
  variant: string;
  case: string;
  /** The ranked cells, fastest first, then the failed ones in the run's order. */
  cells: RankedCell[];
}

const medianOf = (cell: Cell) => (cell.ok ? (cell.summary?.median ?? null) : null);
const ciOf = (cell: Cell): MedianCi | null => (cell.ok ? (cell.summary?.medianCi ?? null) : null);

function rangeAgainst(ci: MedianCi | null, fastest: MedianCi | null): RankedCell['range'] {
  if (!ci || !fastest || fastest.low <= 0 || fastest.high <= 0) return null;
  return { low: ci.low / fastest.high, high: ci.high / fastest.low };
}

function rankGroup(cells: readonly Cell[], place: string): RankedCell[] {
  const timed = cells.filter((c) => medianOf(c) !== null).sort((a, b) => medianOf(a)! - medianOf(b)!);
  const failed = cells.filter((c) => medianOf(c) === null);
  const fastest = timed[0];
  const ranked = timed.map((cell, i): RankedCell => {
    const factor = medianOf(cell)! / medianOf(fastest)!;
    const row = brokerRow(cell, place);
    return {
      transport: cell.transport,
      rank: i + 1,
      medianMs: medianOf(cell),
      factor,
      range: i === 0 ? null : rangeAgainst(ciOf(cell), ciOf(fastest)),
      tiesFastest: factor <= TIE_WITHIN,
      cpuPer1000CallsMs: row.totalCpuPer1000CallsMs,
      brokerCpuPer1000CallsMs: row.broker === null ? null : row.brokerCpuPer1000CallsMs,
      failure: null,
    };
  });
  const unranked = failed.map(
    (cell): RankedCell => ({
      transport: cell.transport,
      rank: null,
      medianMs: null,
      factor: null,
      range: null,
      tiesFastest: false,
      cpuPer1000CallsMs: null,
      brokerCpuPer1000CallsMs: null,
      failure: cell.ok ? 'no timed calls' : failedCellText(cell),
    }),
  );
  return [...ranked, ...unranked];
}

/** The ranked groups of a run, in the order their cells first appear; none where every case had fewer than RANKING_MIN_TRANSPORTS transports. */
export function ranking(results: readonly Cell[]): RankingGroup[] {
  const placeOf = placeLabeller(results);
  const groups = new Map<string, { place: string; variant: string; case: string; cells: Cell[] }>();
  for (const cell of results) {
    const place = placeOf(cell);
    const key = `${place}\u0000${cell.variant}\u0000${cell.case}`;
    const group = groups.get(key) ?? { place, variant: cell.variant, case: cell.case, cells: [] };
    group.cells.push(cell);
    groups.set(key, group);
  }
  return [...groups.values()]
    .filter((g) => new Set(g.cells.map((c) => c.transport)).size >= RANKING_MIN_TRANSPORTS)
    .map((g) => ({ place: g.place, variant: g.variant, case: g.case, cells: rankGroup(g.cells, g.place) }));
}
