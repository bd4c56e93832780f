import type { CellComparison } from '../compare';
import type { StoredRun } from '../runs';
import { ms } from './format';

/** The compare table as Markdown: one row per cell present and ok in both runs. */
export function renderComparison(base: StoredRun, head: StoredRun, rows: readonly CellComparison[]): string {
  const commit = (run: StoredRun) => String(run.doc.provenance?.gitCommit ?? '?').slice(0, 12);
  const lines = [
    `# ${head.name} (head, ${commit(head)}) vs ${base.name} (base, ${commit(base)})`,
    '',
    '| case | transport | base median ms | head median ms | head vs base | p (Welch) | significant | CIs overlap | machine head/base |',
    '|---|---|---:|---:|---|---:|---|---|---:|',
    ...rows.map(
      (r) =>
        `| ${r.case} | ${r.transport} | ${ms(r.baseMedian)} | ${ms(r.headMedian)} | ${r.verdict} | ` +
        `${r.pValue === null ? '—' : r.pValue < 0.001 ? '<0.001' : r.pValue.toFixed(3)} | ${r.significant ? 'yes' : 'no'} | ` +
        `${r.ciOverlap === null ? '—' : r.ciOverlap ? 'yes' : 'no'} | ${r.machineRatio === null ? '—' : `${r.machineRatio.toFixed(2)}×`} |`,
    ),
    '',
    rows.length === 0 ? 'No cell succeeded in both runs.' : `Largest difference: ${largest(rows)}.`,
    '',
    describeAgreement(agreement(rows)),
    '',
    'Ratios are of medians, ± one standard error propagated from each median\'s 95% CI; "significant" is ' +
      "Welch's t-test on the samples at p < 0.05. \"machine head/base\" is the bench's machine probe (a fixed piece " +
      'of CPU work timed before and after each case) in head over base: > 1 means the machine itself was slower ' +
      'during head, so a cell that moved by about as much moved with the machine, not with the code.',
    '',
  ];
  return lines.join('\n');
}

function largest(rows: readonly CellComparison[]): string {
  const worst = [...rows].sort((a, b) => Math.abs(Math.log(b.ratio)) - Math.abs(Math.log(a.ratio)))[0];
  return `${worst.case} ${worst.transport}, ${worst.verdict}`;
}

/** Do two runs of the same code agree? Cells slow enough to judge, and those further apart than the tolerance. */
export interface Agreement {
  minMedianMs: number;
  tolerance: number;
  /** Cells whose median is ≥ minMedianMs in either run. */
  judged: number;
  /** Of those, the ones apart by more than the tolerance (larger ÷ smaller median − 1), furthest first. */
  apart: { case: string; transport: string; difference: number }[];
}

/**
 * The repeatability check of the README ("two runs agree within 10% on every cell ≥ 20 ms"): faster
 * cells are left out because a few hundred microseconds of scheduling move them by more than 10%.
 */
export function agreement(rows: readonly CellComparison[], minMedianMs = 20, tolerance = 0.1): Agreement {
  const judged = rows.filter((r) => Math.max(r.baseMedian, r.headMedian) >= minMedianMs);
  const apart = judged
    .map((r) => ({ case: r.case, transport: r.transport, difference: Math.max(r.baseMedian, r.headMedian) / Math.min(r.baseMedian, r.headMedian) - 1 }))
    // A hair of slack so that exactly 10% (110 vs 100, 0.1000…09 in floating point) counts as within.
    .filter((cell) => cell.difference > tolerance + 1e-9)
    .sort((a, b) => b.difference - a.difference);
  return { minMedianMs, tolerance, judged: judged.length, apart };
}

export function describeAgreement(a: Agreement): string {
  const percent = (x: number) => `${Math.round(x * 100)}%`;
  if (a.judged === 0) return `Agreement: no cell has a median of ${a.minMedianMs} ms or more.`;
  const head = `Agreement: ${a.judged - a.apart.length} of ${a.judged} cells with a median ≥ ${a.minMedianMs} ms are within ${percent(a.tolerance)}`;
  if (a.apart.length === 0) return `${head}.`;
  return `${head}; apart: ${a.apart.map((c) => `${c.case} ${c.transport} ${percent(c.difference)}`).join(', ')}.`;
}
