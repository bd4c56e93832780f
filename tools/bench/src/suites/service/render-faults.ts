// bench:service's faults in the reports (pure, from results.json): what the callers saw per strategy ×
// transport × fault, the recovery timeline per strategy (ok / failed / hung per 100 ms bin), and the
// same as CSV (one row per fault run; one per run and bin).
import { count, ms } from '../../model';
import { renderTimelineChart } from '../../export';
import type { Table } from '../common/tables';
import { FAULT_SCHEDULE, FAULTS } from './faults';
import type { FaultCell } from './fault-run';
import { SLOW_FLOOR_MS } from './fault-figures';
import type { ServiceResults } from './measure';

const after = (v: number | null) => (v === null ? '—' : `${count(Math.round(v))} ms`);
const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${Math.round(100 * v)}%`);
const perS = (v: number | null) => (v === null ? '—' : count(Math.round(v)));

export function kindsText(c: FaultCell): string {
  const kinds = Object.entries(c.byKind).sort((a, b) => b[1] - a[1]);
  return kinds.length ? kinds.map(([kind, n]) => `${kind} ${count(n)}`).join('; ') : 'none';
}

function wholeAgain(c: FaultCell): string {
  if (c.recovery === 'nothing failed') return 'nothing failed';
  if (c.recovery === 'not in the run') return 'not in the run';
  return `${after(c.recoveredAfterMs)}${c.recovery === 'after the undo' ? ' (after the undo)' : ''}`;
}

function faultedText(c: FaultCell): string {
  const f = c.faulted;
  if (!f) return '—';
  const silent = f.silentFromMs === null ? 'answered throughout' : `silent from ${after(f.silentFromMs)}${f.answeredAgainAtMs === null ? '' : `, again at ${after(f.answeredAgainAtMs)}`}`;
  return `${pct(f.steadyShare)} before; ${silent}`;
}

export function faultTable(results: ServiceResults): Table {
  return {
    header: ['strategy', 'transport', 'fault', 'recovery', 'target', 'rate/s', 'calls', 'failed', 'hung', 'slow', 'failed by kind', 'first failure after', 'whole again after', 'others carry all after', 'faulted replica (own counter)', 'worst p99 bin ms', 'CPU ms/s steady / fault / after', 'undo'],
    numeric: [false, false, false, false, false, true, true, true, true, true, false, true, false, true, false, true, false, false],
    rows: (results.faults ?? []).map((c) => [
      c.strategy,
      c.transport,
      c.fault,
      c.recoveryTuning ?? 'none',
      `${c.target.what}${c.target.pid === null ? '' : ` (pid ${c.target.pid})`}`,
      count(c.offeredPerS),
      count(c.due),
      count(c.failed),
      count(c.hung),
      `${count(c.slow)}${c.slow > 0 ? ` (> ${count(Math.round(c.slowMs))} ms)` : ''}`,
      kindsText(c),
      after(c.firstFailureAfterMs),
      wholeAgain(c),
      after(c.survivorsCarryAfterMs),
      faultedText(c),
      ms(Math.max(0, ...c.bins.map((b) => b.p99Ms ?? 0))),
      [c.cpuMsPerS.steady, c.cpuMsPerS.fault, c.cpuMsPerS.undone].map(perS).join(' / '),
      c.undo,
    ]),
  };
}

/** What the faults section says before its table: the schedule and each fault's record. */
export function faultIntro(results: ServiceResults, phaseMs: number, rate: number): string {
  const used = new Set((results.faults ?? []).map((c) => c.fault));
  const records = FAULTS.filter((f) => used.has(f.name)).map((f) => `${f.name}: ${f.does} (${f.models}); undone: ${f.undo}.`);
  return `At ${rate} calls/s, ${phaseMs} ms per phase, ${FAULT_SCHEDULE.description} Times are from the injection; "slow": succeeded, but later than 5 × the steady phase's p99 (at least ${SLOW_FLOOR_MS} ms) after it was due; "whole again": the due time of the last call that failed, hung or was slow; "others carry all" is when the other replicas' own counters (polled every ${FAULT_SCHEDULE.pollMs} ms) counted ≥ 90 % of the offered calls in every later 500 ms. ${records.join(' ')}`;
}

/** One recovery timeline per fault run, in sections per strategy. */
export function faultCharts(results: ServiceResults): { strategy: string; charts: string[] }[] {
  const cells = results.faults ?? [];
  return [...new Set(cells.map((c) => c.strategy))].map((strategy) => ({
    strategy,
    charts: cells
      .filter((c) => c.strategy === strategy)
      .map((c) =>
        renderTimelineChart({
          kind: 'fault-timeline',
          caseId: `${strategy} · ${c.fault}${c.recoveryTuning && c.recoveryTuning !== 'none' ? ` · ${c.recoveryTuning}` : ''}`,
          subheading: `${c.transport} at ${c.offeredPerS}/s, recovery ${c.recoveryTuning ?? 'none'}: ${c.failed} failed, ${c.hung} hung`,
          label: `${strategy}, ${c.transport}, ${c.fault}, recovery ${c.recoveryTuning ?? 'none'}: calls per ${FAULT_SCHEDULE.binMs} ms bin by outcome (ok, failed, hung)`,
          binMs: FAULT_SCHEDULE.binMs,
          columns: c.bins,
          marks: [{ atMs: c.injectedAtMs, label: 'fault' }, ...(c.undoneAtMs === null ? [] : [{ atMs: c.undoneAtMs, label: 'undone' }])],
        }),
      ),
  }));
}

const csvField = (v: string | number | null) => {
  const s = v === null ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
export const csv = (rows: (string | number | null)[][]) => rows.map((r) => r.map(csvField).join(',')).join('\n') + '\n';

/** faults.csv: one row per fault run, its figures. */
export function faultsCsv(results: ServiceResults): string {
  const header = ['strategy', 'transport', 'fault', 'recovery', 'target', 'pid', 'rate_per_s', 'phase_ms', 'injected_at_ms', 'undone_at_ms', 'calls', 'ok', 'failed', 'hung', 'slow', 'failed_by_kind', 'first_failure_after_ms', 'recovery', 'whole_again_after_ms', 'others_carry_all_after_ms', 'faulted_steady_share', 'faulted_silent_from_ms', 'faulted_answered_again_at_ms', 'cpu_ms_per_s_steady', 'cpu_ms_per_s_fault', 'cpu_ms_per_s_after', 'undo'];
  const r1 = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);
  return csv([
    header,
    ...(results.faults ?? []).map((c) => [
      c.strategy, c.transport, c.fault, c.recoveryTuning ?? 'none', c.target.what, c.target.pid, c.offeredPerS, c.phaseMs, r1(c.injectedAtMs), r1(c.undoneAtMs), c.due, c.ok, c.failed, c.hung, c.slow, kindsText(c),
      r1(c.firstFailureAfterMs), c.recovery, r1(c.recoveredAfterMs), r1(c.survivorsCarryAfterMs), c.faulted?.steadyShare ?? null, r1(c.faulted?.silentFromMs ?? null), r1(c.faulted?.answeredAgainAtMs ?? null),
      r1(c.cpuMsPerS.steady), r1(c.cpuMsPerS.fault), r1(c.cpuMsPerS.undone), c.undo,
    ]),
  ]);
}

/** fault-timeline.csv: one row per fault run and 100 ms bin (by due time): ok, failed, hung, p99. */
export function faultTimelineCsv(results: ServiceResults): string {
  return csv([
    ['strategy', 'transport', 'fault', 'recovery', 'bin_start_ms', 'ok', 'failed', 'hung', 'p99_ms'],
    ...(results.faults ?? []).flatMap((c) => c.bins.map((b) => [c.strategy, c.transport, c.fault, c.recoveryTuning ?? 'none', b.atMs, b.ok, b.failed, b.hung, b.p99Ms === null ? null : Math.round(b.p99Ms * 10) / 10])),
  ]);
}
