// How long a run will take, from what the same cells took in the last runs on this machine (the results
// folder's history). The blog's figures (expectedCostMs) are only the fallback: on a shared VM, across a
// network or with a slow codec they were off by 2× either way, and a newcomer plans around that line.
import { type Cell, type Visit, type RunDocument, type StoredRun, type Transport } from '../model';
import { cellLabel } from '../model';
import { duration } from './progress';

/** The model's guesses, used where the history has nothing (progress.ts: from the blog's figures). */
export interface CostModel {
  visitMs: (planned: Visit) => number;
  setStartMs: number;
  stageBuildMs: number;
}

/** Runs of the history an estimate reads, newest first: older ones ran older code. */
export const HISTORY_RUNS = 10;

export interface RunEstimate {
  /** The likeliest duration: per visit the median over the runs that measured its cell. */
  ms: number;
  /** Half the gap between the sums of each visit's fastest and slowest past cost; null with one past run per cell. */
  spreadMs: number | null;
  /** The runs read (folder names), newest first; empty: the model alone. */
  runs: string[];
  /** Visits of the plan costed from a past run's cell; the others from the model. */
  measuredVisits: number;
  visits: number;
  /** Each visit's likeliest cost, in plan order (what the progress lines scale by the pace kept). */
  visitMs: number[];
  /** The likeliest time outside visits: starting sets of apps and network stages. */
  outsideMs: number;
}

/** What one past run measured of one cell (all its transports): enough to cost a visit planned differently. */
export interface PastCell {
  /** Mean timed call per transport. */
  callMs: Partial<Record<Transport, number>>;
  coldMs: Partial<Record<Transport, number>>;
  /** Time a visit spent besides its calls (the driver's requests, reading metrics), per visit. */
  asideMs: number;
}

const cellKey = (network: string, runtime: string, variant: string, caseId: string) => `${network}\u0000${runtime}\u0000${variant}\u0000${caseId}`;
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Visits a past cell was measured in: recorded per cell since visitsDone, else the run's setting. */
function visitsOf(doc: RunDocument, cell: Cell, label: string): number {
  const done = (doc.settings.visitsDone as Record<string, number> | undefined)?.[label];
  const perCase = (doc.settings.visitsPerCase as Record<string, number> | undefined)?.[cell.case];
  return Math.max(1, done ?? perCase ?? 1);
}

/** The cells of one past run that every transport measured, keyed by network, runtime, variant and case. */
function pastCells(doc: RunDocument): Map<string, PastCell> {
  const byKey = new Map<string, Cell[]>();
  for (const cell of doc.results) {
    const key = cellKey(cell.network ?? 'loopback', cell.runtime ?? '', cell.variant, cell.case);
    byKey.set(key, [...(byKey.get(key) ?? []), cell]);
  }
  const cells = new Map<string, PastCell>();
  for (const [key, group] of byKey) {
    if (group.some((c) => !c.ok || c.samplesMs.length === 0)) continue;
    const first = group[0];
    const visits = visitsOf(doc, first, cellLabel(first));
    // wallMs is the visits' wall time, the same on each transport of a visit (they interleave).
    const callsMs = sum(group.map((c) => sum(c.samplesMs) + sum(c.warmupMs) + (c.coldMs ?? 0)));
    cells.set(key, {
      callMs: Object.fromEntries(group.map((c) => [c.transport, sum(c.samplesMs) / c.samplesMs.length])),
      coldMs: Object.fromEntries(group.map((c) => [c.transport, c.coldMs ?? 0])),
      asideMs: Math.max(0, (first.wallMs - callsMs) / visits),
    });
  }
  return cells;
}

/** A planned visit's cost if its calls take what they took in `past`; null when `past` lacks one of its transports. */
export function visitCostMs(planned: Visit, past: PastCell): number | null {
  const calls = planned.transports.map((t) => past.callMs[t]);
  if (calls.some((c) => c === undefined)) return null;
  const repetitionMs = sum(calls as number[]);
  // As the runner does: a budget stops the timed calls once spent, never before minRuns.
  const runs = planned.budgetMs === null ? planned.runs : Math.min(planned.runs, Math.max(planned.minRuns, Math.ceil(planned.budgetMs / Math.max(repetitionMs, 1e-3))));
  // The cold call and the counted warm-up, then timed warm-up calls until warmupMs is spent.
  const warmupMs = sum(planned.transports.map((t) => Math.max(planned.warmupMs, (planned.cold ? (past.coldMs[t] ?? 0) : 0) + planned.warmup * (past.callMs[t] ?? 0))));
  return runs * repetitionMs + warmupMs + past.asideMs;
}

/** Sets of apps and network stages a past run started, and its time outside visits (starting them, quiet waits). */
function outsideOf(doc: RunDocument, model: CostModel): { modelMs: number; measuredMs: number } | null {
  const started = Date.parse(String(doc.settings.startedAt ?? ''));
  const finished = Date.parse(String(doc.provenance.finishedAt ?? ''));
  if (doc.incomplete || !Number.isFinite(started) || !Number.isFinite(finished)) return null;
  const sets = sum(Object.values((doc.settings.startedApps ?? {}) as Record<string, unknown[]>).map((list) => list.length));
  const stages = Object.values((doc.provenance.networks ?? {}) as Record<string, { calibration?: unknown }>).filter((n) => n.calibration).length;
  const modelMs = sets * model.setStartMs + stages * model.stageBuildMs;
  if (modelMs === 0) return null;
  const seen = new Set<string>();
  let visitsMs = 0;
  for (const cell of doc.results) {
    const key = cellKey(cell.network ?? 'loopback', cell.runtime ?? '', cell.variant, cell.case);
    if (!seen.has(key)) visitsMs += cell.wallMs;
    seen.add(key);
  }
  return { modelMs, measuredMs: Math.max(0, finished - started - visitsMs) };
}

/**
 * The run's duration: each visit costed from every past run that measured its cell (the median, the
 * spread from the fastest and slowest), the model's figure where none did; the time outside visits
 * (sets of apps, network stages) is the model's, scaled as it compared in the past complete runs.
 */
export function estimateRun(plan: readonly Visit[], sets: number, stages: number, history: readonly StoredRun[], model: CostModel): RunEstimate {
  const recent = [...history].sort((a, b) => b.name.localeCompare(a.name)).slice(0, HISTORY_RUNS);
  const past = recent.map((run) => ({ name: run.name, cells: pastCells(run.doc) }));
  const used = new Set<string>();
  let [ms, low, high, measuredVisits, spreadKnown] = [0, 0, 0, 0, false];
  const visitMs: number[] = [];
  for (const planned of plan) {
    const key = cellKey(planned.network, planned.runtime, planned.variant, planned.record.id);
    const costs: number[] = [];
    for (const run of past) {
      const cell = run.cells.get(key);
      const cost = cell ? visitCostMs(planned, cell) : null;
      if (cost === null) continue;
      costs.push(cost);
      used.add(run.name);
    }
    if (costs.length === 0) costs.push(model.visitMs(planned));
    else measuredVisits++;
    if (costs.length > 1) spreadKnown = true;
    visitMs.push(median(costs));
    ms += median(costs);
    low += Math.min(...costs);
    high += Math.max(...costs);
  }
  const outsideModelMs = sets * model.setStartMs + stages * model.stageBuildMs;
  const ratios = recent.map((run) => outsideOf(run.doc, model)).filter((o) => o !== null).map((o) => o.measuredMs / o.modelMs);
  const scale = ratios.length > 0 ? median(ratios) : 1;
  const outsideMs = outsideModelMs * scale;
  ms += outsideMs;
  low += outsideModelMs * (ratios.length > 0 ? Math.min(...ratios) : 1);
  high += outsideModelMs * (ratios.length > 0 ? Math.max(...ratios) : 1);
  if (ratios.length > 1) spreadKnown = true;
  const runs = recent.map((run) => run.name).filter((name) => used.has(name));
  return { ms, spreadMs: spreadKnown && runs.length > 0 ? (high - low) / 2 : null, runs, measuredVisits, visits: plan.length, visitMs, outsideMs };
}

/**
 * The bound (every call at its deadline, every set restarted: deadlines.ts) is worth a newcomer's
 * attention only when it is near the estimate; 28 h beside a 5 min estimate says nothing about the run.
 */
export const BOUND_SHOWN_WITHIN = 10;

/** The start line's estimate: the figure, its spread and where it came from; the bound only when it is near. */
export function describeEstimate(estimate: RunEstimate, boundMs: number, folder: string): string {
  const figure = `≈ ${duration(estimate.ms)}${estimate.spreadMs === null ? '' : ` ± ${duration(estimate.spreadMs)}`}`;
  const fromModel = estimate.visits - estimate.measuredVisits;
  const runs = estimate.runs.length === 1 ? 'the last run' : `the last ${estimate.runs.length} runs`;
  const visits = estimate.measuredVisits === estimate.visits ? 'every visit' : `${estimate.measuredVisits} of ${estimate.visits} visits`;
  const source =
    estimate.runs.length === 0
      ? `from the blog's figures: no earlier run in ${folder}/ measured these cells, so this one calibrates the next`
      : `${visits} costed from the same cell in ${runs} in ${folder}/ on this machine` +
        (fromModel > 0 ? `, ${fromModel} from the blog's figures` : '') +
        (estimate.spreadMs === null ? '; no spread: one run per cell' : '; ± half the range from fastest to slowest');
  const bound = boundMs <= BOUND_SHOWN_WITHIN * (estimate.ms + (estimate.spreadMs ?? 0)) ? `; at most ${duration(boundMs)} (every call at its deadline)` : '';
  return `expected ${figure} (${source})${bound}`;
}
