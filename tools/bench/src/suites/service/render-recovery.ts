// bench:service's recovery tunings in the reports (pure, from results.json): each tuning's factor on what
// the callers saw under each fault (calls lost, hung, slow, time until whole again) and on the steady
// state (p99, CPU per 1,000 calls), against the same pair at its defaults (`none`); as tables and CSV.
import { count, ms } from '../../model';
import { RECOVERY_NAMES, RECOVERY_TUNINGS, type Recovery } from '../../network/service';
import type { Table } from '../common/tables';
import type { FaultCell } from './fault-run';
import { csv } from './render-faults';
import type { RecoverySteadyCell, ServiceResults } from './measure';

/** One recovery against the defaults, on one strategy × transport and one fault (or the steady state at one rate). */
export interface RecoveryFactor {
  recovery: Exclude<Recovery, 'none'>;
  strategy: string;
  transport: string;
  /** A fault's name, or `steady` (no fault) at `rate`. */
  under: string;
  rate: number;
  /** The figure at the defaults and with the recovery; null where that cell is missing (not run, failed). */
  none: RecoveryFigures | null;
  with: RecoveryFigures | null;
}

export interface RecoveryFigures {
  /** Calls that did not succeed: failed fast + hung to their deadline (faults); errors (steady). */
  lost: number;
  hung: number | null;
  slow: number | null;
  /** From the injection to the due time of the last bad call (null: not whole in the run); 0 when nothing failed. */
  wholeAgainMs: number | null;
  /** Steady state: p99 from the due time, and everyone's CPU per 1,000 completed calls. */
  p99Ms: number | null;
  cpuPer1000CallsMs: number | null;
}

const recoveryOf = (c: { recoveryTuning?: Recovery }): Recovery => c.recoveryTuning ?? 'none';

function faultFigures(c: FaultCell): RecoveryFigures {
  return { lost: c.failed + c.hung, hung: c.hung, slow: c.slow, wholeAgainMs: c.recovery === 'not in the run' ? null : (c.recoveredAfterMs ?? 0), p99Ms: null, cpuPer1000CallsMs: null };
}

function steadyFigures(c: RecoverySteadyCell): RecoveryFigures {
  return { lost: c.errors, hung: null, slow: null, wholeAgainMs: null, p99Ms: c.corrected.p99Ms, cpuPer1000CallsMs: c.cpuPer1000CallsMs };
}

/** Every recovery other than none, each cell beside the same pair's cell at the defaults (under the same fault, or at the same steady rate). */
export function recoveryFactors(results: Pick<ServiceResults, 'faults' | 'recovery'>): RecoveryFactor[] {
  const out: RecoveryFactor[] = [];
  const faults = results.faults ?? [];
  for (const c of faults.filter((f) => recoveryOf(f) !== 'none')) {
    const base = faults.find((f) => recoveryOf(f) === 'none' && f.strategy === c.strategy && f.transport === c.transport && f.fault === c.fault);
    out.push({ recovery: recoveryOf(c) as RecoveryFactor['recovery'], strategy: c.strategy, transport: c.transport, under: c.fault, rate: c.offeredPerS, none: base ? faultFigures(base) : null, with: faultFigures(c) });
  }
  const steady = results.recovery ?? [];
  for (const c of steady.filter((s) => s.recoveryTuning !== 'none')) {
    const base = steady.find((s) => s.recoveryTuning === 'none' && s.strategy === c.strategy && s.transport === c.transport && s.offeredPerS === c.offeredPerS);
    out.push({ recovery: c.recoveryTuning as RecoveryFactor['recovery'], strategy: c.strategy, transport: c.transport, under: 'steady', rate: c.offeredPerS, none: base ? steadyFigures(base) : null, with: steadyFigures(c) });
  }
  return out.sort((a, b) => RECOVERY_NAMES.indexOf(a.recovery) - RECOVERY_NAMES.indexOf(b.recovery) || a.strategy.localeCompare(b.strategy) || a.transport.localeCompare(b.transport));
}

/** Without ÷ with (above 1: the recovery helps: fewer, sooner, faster, cheaper); null where it says nothing (a zero or a missing side). */
export function factor(without: number | null | undefined, withIt: number | null | undefined): number | null {
  if (without === null || without === undefined || withIt === null || withIt === undefined) return null;
  if (without === 0 && withIt === 0) return 1;
  if (withIt === 0 || without === 0) return null;
  return without / withIt;
}

const factorText = (without: number | null | undefined, withIt: number | null | undefined): string => {
  const f = factor(without, withIt);
  if (f !== null) return `${f >= 10 ? Math.round(f) : f.toFixed(2)}×`;
  if (withIt === 0 && without) return 'all gone';
  if (without === 0 && withIt) return 'new';
  return '—';
};
const n = (v: number | null | undefined) => (v === null || v === undefined ? '—' : count(Math.round(v)));
const arrow = (a: string, b: string) => `${a} → ${b}`;
const whole = (f: RecoveryFigures | null) => (f === null ? '—' : f.wholeAgainMs === null ? 'not in the run' : `${count(Math.round(f.wholeAgainMs))} ms`);

/** Under faults: per recovery, pair and fault, the defaults → the recovery, and the factor (defaults ÷ recovery). */
export function recoveryFaultTable(results: Pick<ServiceResults, 'faults' | 'recovery'>): Table {
  const rows = recoveryFactors(results).filter((r) => r.under !== 'steady');
  return {
    header: ['recovery', 'strategy', 'transport', 'fault', 'calls lost (failed + hung)', 'factor', 'hung', 'slow', 'factor', 'whole again after', 'factor'],
    numeric: [false, false, false, false, true, true, true, true, true, true, true],
    rows: rows.map((r) => [
      r.recovery,
      r.strategy,
      r.transport,
      r.under,
      arrow(n(r.none?.lost), n(r.with?.lost)),
      factorText(r.none?.lost, r.with?.lost),
      arrow(n(r.none?.hung), n(r.with?.hung)),
      arrow(n(r.none?.slow), n(r.with?.slow)),
      factorText(r.none?.slow, r.with?.slow),
      arrow(whole(r.none), whole(r.with)),
      factorText(r.none?.wholeAgainMs, r.with?.wholeAgainMs),
    ]),
  };
}

/** With nothing failing: per recovery, pair and rate, p99 and CPU per 1,000 calls at the defaults → with it, and the factor. */
export function recoverySteadyTable(results: Pick<ServiceResults, 'faults' | 'recovery'>): Table {
  const rows = recoveryFactors(results).filter((r) => r.under === 'steady');
  return {
    header: ['recovery', 'strategy', 'transport', 'rate/s', 'p99 ms', 'factor', 'CPU ms / 1,000 calls', 'factor', 'errors'],
    numeric: [false, false, false, true, true, true, true, true, true],
    rows: rows.map((r) => [
      r.recovery,
      r.strategy,
      r.transport,
      count(r.rate),
      arrow(r.none?.p99Ms == null ? '—' : ms(r.none.p99Ms), r.with?.p99Ms == null ? '—' : ms(r.with.p99Ms)),
      factorText(r.none?.p99Ms, r.with?.p99Ms),
      arrow(n(r.none?.cpuPer1000CallsMs), n(r.with?.cpuPer1000CallsMs)),
      factorText(r.none?.cpuPer1000CallsMs, r.with?.cpuPer1000CallsMs),
      arrow(n(r.none?.lost), n(r.with?.lost)),
    ]),
  };
}

/** What the recovery sections say before their tables: the tunings run, and how to read a factor. */
export function recoveryIntro(results: Pick<ServiceResults, 'faults' | 'recovery'>): string {
  const used = new Set(recoveryFactors(results).map((r) => r.recovery));
  const records = RECOVERY_TUNINGS.filter((t) => used.has(t.id) || used.has('all')).map((t) => `${t.id} (${t.transport}; ${t.strategies.join(', ')}): ${t.change}.`);
  return `Each recovery tuning alone (the defaults with only it on) and all that apply to the pair, against the same strategy × transport at its defaults (none); a tuning runs only where it changes something. Factor: defaults ÷ with it (above 1: fewer calls lost or slow, whole sooner, lower p99, less CPU; "all gone": none left with it). ${records.join(' ')}`;
}

const r1 = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v * 10) / 10);
const r3 = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 1000);

/** recovery.csv: one row per recovery, pair and fault (or steady rate): each figure at the defaults and with it, and the factor. */
export function recoveryCsv(results: ServiceResults): string {
  const header = ['recovery', 'strategy', 'transport', 'under', 'rate_per_s', 'lost_none', 'lost_with', 'lost_factor', 'hung_none', 'hung_with', 'slow_none', 'slow_with', 'whole_again_ms_none', 'whole_again_ms_with', 'p99_ms_none', 'p99_ms_with', 'p99_factor', 'cpu_per_1000_calls_ms_none', 'cpu_per_1000_calls_ms_with', 'cpu_factor'];
  const rows = recoveryFactors(results).map((r) => [
    r.recovery, r.strategy, r.transport, r.under, r.rate, r.none?.lost ?? null, r.with?.lost ?? null, r3(factor(r.none?.lost, r.with?.lost)), r.none?.hung ?? null, r.with?.hung ?? null, r.none?.slow ?? null, r.with?.slow ?? null,
    r1(r.none?.wholeAgainMs), r1(r.with?.wholeAgainMs), r1(r.none?.p99Ms), r1(r.with?.p99Ms), r3(factor(r.none?.p99Ms, r.with?.p99Ms)), r1(r.none?.cpuPer1000CallsMs), r1(r.with?.cpuPer1000CallsMs), r3(factor(r.none?.cpuPer1000CallsMs, r.with?.cpuPer1000CallsMs)),
  ]);
  return csv([header, ...rows]);
}
