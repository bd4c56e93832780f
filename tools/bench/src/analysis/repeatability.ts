// Repeatability over a series of runs (issue #43): per verdict row (variant, case, network, runtime,
// security), the gRPC/JSON ratio each run measured, its range over the series, how many consecutive pairs
// agree within REPEAT_WITHIN, and — where a pair does not — whether a mode note of either run explains it,
// else where the time moved: the phase of one transport's calls that changed the most between the two runs.
// What a newcomer will see is a range over fresh runs, not one run's factor. Read from the documents.
import type { Cell } from '../model';
import { findCell } from '../model';
import { PHASE_LABELS, phaseParts, type PhaseKey } from './breakdown';
import { cellModes, hasModeNote } from './modes';
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
  /** Each transport's mean call and its phases (ms), where the cell recorded them, and the GC pauses inside the server's. */
  phases: Partial<Record<'json' | 'grpc', { totalMs: number; parts: Partial<Record<PhaseKey, number>>; gc: Partial<Record<GcPhase, number>> }>>;
}

/** The server's phases whose GC pauses a cell records. */
type GcPhase = 'build' | 'encode';

/** Where a disagreeing pair's time moved: one transport's phase, before and after (mean ms per call). */
export interface PhaseMove {
  /** The pair's later run's index in the series (1-based: run i → run i + 1 is `to` = i + 1). */
  to: number;
  transport: 'json' | 'grpc';
  phase: PhaseKey;
  fromMs: number;
  toMs: number;
  /** That phase's change ÷ the change of the transport's mean call (1: the phase moved the whole call). */
  shareOfMove: number;
  /** The GC pauses inside that phase, before and after (ms per call), where both runs recorded them. */
  gc?: { fromMs: number; toMs: number };
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
  /** Consecutive pairs that disagree and where neither run's cells carry a mode note nor one phase carries half the move: unexplained. */
  pairsUnexplained: number;
  /** For each disagreeing pair without a mode note: the phase that moved the most, when the cells recorded phases. */
  moves: PhaseMove[];
}

const rowKey = (r: Pick<VerdictRow, 'variant' | 'case' | 'network' | 'runtime' | 'security'>) => [r.variant, r.case, r.network, r.runtime, r.security].join('\u0000');

const cellOf = (results: readonly Cell[], row: VerdictRow, transport: 'json' | 'grpc') =>
  findCell(results, { variant: row.variant, case: row.case, network: row.network, runtime: row.runtime, security: row.security, transport });

/** The phases of a row's two cells in one run (mean ms per call), where recorded. */
function phasesOf(results: readonly Cell[], row: VerdictRow): SeriesPoint['phases'] {
  const phases: SeriesPoint['phases'] = {};
  for (const transport of ['json', 'grpc'] as const) {
    const cell = cellOf(results, row, transport);
    if (!cell?.ok || !cell.phases) continue;
    const parts = Object.fromEntries(phaseParts(cell.phases).filter((p) => p.ms !== null).map((p) => [p.phase, p.ms as number]));
    const { serverBuildGcMs: build, serverEncodeGcMs: encode } = cell.phases;
    const gc = { ...(typeof build === 'number' ? { build } : {}), ...(typeof encode === 'number' ? { encode } : {}) };
    phases[transport] = { totalMs: cell.phases.totalMs, parts, gc };
  }
  return phases;
}

/** The phase of either transport that moved the most between two runs, with its share of that transport's move. */
function phaseMove(a: SeriesPoint, b: SeriesPoint, to: number): PhaseMove | null {
  let best: PhaseMove | null = null;
  for (const transport of ['json', 'grpc'] as const) {
    const [pa, pb] = [a.phases[transport], b.phases[transport]];
    if (!pa || !pb) continue;
    for (const phase of Object.keys(pa.parts) as PhaseKey[]) {
      const [fromMs, toMs] = [pa.parts[phase], pb.parts[phase]];
      if (fromMs === undefined || toMs === undefined) continue;
      const whole = pb.totalMs - pa.totalMs;
      const [gcFrom, gcTo] = phase === 'build' || phase === 'encode' ? [pa.gc[phase], pb.gc[phase]] : [undefined, undefined];
      const gc = gcFrom !== undefined && gcTo !== undefined ? { gc: { fromMs: gcFrom, toMs: gcTo } } : {};
      const move: PhaseMove = { to, transport, phase, fromMs, toMs, shareOfMove: whole === 0 ? 0 : (toMs - fromMs) / whole, ...gc };
      if (!best || Math.abs(toMs - fromMs) > Math.abs(best.toMs - best.fromMs)) best = move;
    }
  }
  return best;
}

/** "run 2 → 3: gRPC server encode 44.9 → 26.4 ms per call (84 % of its call's change; GC pauses inside it 17.0 → 0.40 ms)". */
export function phaseMoveText(m: PhaseMove): string {
  const label = m.transport === 'json' ? 'JSON' : 'gRPC';
  const ms = (v: number) => (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US'));
  const gc = m.gc ? `; GC pauses inside it ${ms(m.gc.fromMs)} → ${ms(m.gc.toMs)} ms` : '';
  return `run ${m.to - 1} → ${m.to}: ${label} ${PHASE_LABELS[m.phase]} ${ms(m.fromMs)} → ${ms(m.toMs)} ms per call (${Math.round(m.shareOfMove * 100)} % of its call's change${gc})`;
}

/** The mode notes of a row's two cells in one run: only those that say something beyond "one mode". */
function modeNotesOf(results: readonly Cell[], row: VerdictRow): string[] {
  const notes: string[] = [];
  for (const transport of ['json', 'grpc'] as const) {
    const cell = cellOf(results, row, transport);
    const modes = cell ? cellModes(cell) : null;
    if (modes && hasModeNote(modes)) notes.push(`${transport === 'json' ? 'JSON' : 'gRPC'}: ${modes.note}`);
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
      const row = rows.get(key) ?? { variant: v.variant, case: v.case, network: v.network, runtime: v.runtime, security: v.security, points: [], range: null, pairs: 0, pairsAgreeing: 0, pairsUnexplained: 0, moves: [] };
      row.points.push({ run: run.name, ratio: v.cell.ratio, winner: v.cell.winner, modeNotes: modeNotesOf(run.results, v), phases: phasesOf(run.results, v) });
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
  const moves: PhaseMove[] = [];
  for (let i = 1; i < row.points.length; i++) {
    const [a, b] = [row.points[i - 1], row.points[i]];
    if (a.ratio === null || b.ratio === null) continue;
    pairs++;
    if (ratiosAgree(a.ratio, b.ratio)) pairsAgreeing++;
    else if (a.modeNotes.length === 0 && b.modeNotes.length === 0) {
      const move = phaseMove(a, b, i + 1);
      if (move) moves.push(move);
      if (!move || move.shareOfMove < 0.5) pairsUnexplained++;
    }
  }
  return { ...row, range, pairs, pairsAgreeing, pairsUnexplained, moves };
}
