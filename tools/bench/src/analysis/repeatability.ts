// Repeatability over a series of runs (issue #43): per verdict row (variant, case, network, runtime,
// security), the gRPC/JSON ratio each run measured, its range over the series, how many consecutive pairs
// agree within REPEAT_WITHIN, and — where a pair does not — whether a mode note of either run explains it.
// What a newcomer will see is a range over fresh runs, not one run's factor. Read from the documents.
import type { Cell } from '../model';
import { findCell } from '../model';
import { cellModes } from './modes';
import { verdict, type VerdictRow } from './verdict';

/** Two runs agree on a case when their gRPC/JSON ratios differ by at most this share. */
export const REPEAT_WITHIN = 0.1;

/** One run of a series: its name (the UTC folder name) and its cells. */
export interface SeriesRun {
  name: string;
  results: readonly Cell[];
}

/** What one run measured of one row: the ratio, the winner, and its cells' mode notes (when two modes or a mechanism). */
export interface SeriesPoint {
  run: string;
  /** gRPC median ÷ JSON median (> 1: JSON faster); null where a cell failed or is missing. */
  ratio: number | null;
  winner: VerdictRow['cell']['winner'];
  /** "JSON: two modes: …" for each transport whose calls fell into two groups or paid a named mechanism. */
  modeNotes: string[];
}

export interface RepeatabilityRow {
  variant: string;
  case: string;
  network: string;
  runtime: string;
  security: string;
  points: SeriesPoint[];
  /** The smallest and largest ratio over the runs that measured it (null: none did). */
  range: { low: number; high: number } | null;
  /** Consecutive pairs (run i, run i+1) both measured, and how many of them agree within REPEAT_WITHIN. */
  pairs: number;
  pairsAgreeing: number;
  /** Consecutive pairs that disagree and where neither run's cells carry a mode note: unexplained. */
  pairsUnexplained: number;
}

const rowKey = (r: Pick<VerdictRow, 'variant' | 'case' | 'network' | 'runtime' | 'security'>) => [r.variant, r.case, r.network, r.runtime, r.security].join('\u0000');

/** The mode notes of a row's two cells in one run: only those that say something beyond "one mode". */
function modeNotesOf(results: readonly Cell[], row: VerdictRow): string[] {
  const notes: string[] = [];
  for (const transport of ['json', 'grpc'] as const) {
    const cell = findCell(results, { variant: row.variant, case: row.case, network: row.network, runtime: row.runtime, security: row.security, transport });
    const modes = cell ? cellModes(cell) : null;
    if (modes && (modes.groups.length > 1 || modes.mechanism)) notes.push(`${transport === 'json' ? 'JSON' : 'gRPC'}: ${modes.note}`);
  }
  return notes;
}

/** Whether two ratios agree within REPEAT_WITHIN (the larger over the smaller). */
export function ratiosAgree(a: number, b: number): boolean {
  return Math.max(a, b) / Math.min(a, b) - 1 <= REPEAT_WITHIN + 1e-12;
}

/** Per verdict row of the runs (in the order given: oldest first), the series of ratios and its agreement. */
export function repeatability(runs: readonly SeriesRun[]): RepeatabilityRow[] {
  const rows = new Map<string, RepeatabilityRow>();
  for (const run of runs) {
    for (const v of verdict(run.results).rows) {
      const key = rowKey(v);
      const row = rows.get(key) ?? { variant: v.variant, case: v.case, network: v.network, runtime: v.runtime, security: v.security, points: [], range: null, pairs: 0, pairsAgreeing: 0, pairsUnexplained: 0 };
      row.points.push({ run: run.name, ratio: v.cell.ratio, winner: v.cell.winner, modeNotes: modeNotesOf(run.results, v) });
      rows.set(key, row);
    }
  }
  return [...rows.values()].map(summarize);
}

function summarize(row: RepeatabilityRow): RepeatabilityRow {
  const ratios = row.points.map((p) => p.ratio).filter((r): r is number => r !== null);
  const range = ratios.length > 0 ? { low: Math.min(...ratios), high: Math.max(...ratios) } : null;
  let pairs = 0;
  let pairsAgreeing = 0;
  let pairsUnexplained = 0;
  for (let i = 1; i < row.points.length; i++) {
    const [a, b] = [row.points[i - 1], row.points[i]];
    if (a.ratio === null || b.ratio === null) continue;
    pairs++;
    if (ratiosAgree(a.ratio, b.ratio)) pairsAgreeing++;
    else if (a.modeNotes.length === 0 && b.modeNotes.length === 0) pairsUnexplained++;
  }
  return { ...row, range, pairs, pairsAgreeing, pairsUnexplained };
}
