import { compareKit, type CellComparison } from './compare';
import { type StoredRun, ms } from '../model';

/** The compare table as Markdown: one row per cell present and ok in both runs. */
export function renderComparison(base: StoredRun, head: StoredRun, rows: readonly CellComparison[]): string {
  const kit = compareKit();
  const commit = (run: StoredRun) => String(run.doc.provenance?.gitCommit ?? '?').slice(0, 12);
  // Cells pair by runtime (compare.ts's sameCell); a node column says which when the runs have several.
  const byRuntime = new Set(rows.map((r) => r.runtime)).size > 1;
  const bySecurity = rows.some((r) => r.security !== 'plain');
  const lines = [
    `# ${head.name} (head, ${commit(head)}) vs ${base.name} (base, ${commit(base)})`,
    '',
    `|${byRuntime ? ' node |' : ''}${bySecurity ? ' security |' : ''} variant | case | transport | base median ms | head median ms | head vs base | p (Welch) | significant | CIs overlap | machine head/base |`,
    `|${byRuntime ? '---|' : ''}${bySecurity ? '---|' : ''}---|---|---|---:|---:|---|---:|---|---|---:|`,
    ...rows.map(
      (r) =>
        `|${byRuntime ? ` ${r.runtime} |` : ''}${bySecurity ? ` ${r.security} |` : ''} ${r.variant} | ${r.case} | ${r.transport} | ${ms(r.baseMedian)} | ${ms(r.headMedian)} | ${r.verdict} | ` +
        `${r.pValue === null ? '—' : r.pValue < 0.001 ? '<0.001' : r.pValue.toFixed(3)} | ${r.significant ? 'yes' : 'no'} | ` +
        `${r.ciOverlap === null ? '—' : r.ciOverlap ? 'yes' : 'no'} | ${r.machineRatio === null ? '—' : `${r.machineRatio.toFixed(2)}×`} |`,
    ),
    '',
    rows.length === 0 ? 'No cell succeeded in both runs.' : `Largest difference: ${largest(rows)}.`,
    '',
    kit.describeAgreement(kit.agreement(rows)),
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
  const several = new Set(rows.map((r) => r.runtime)).size > 1;
  return `${several ? `Node ${worst.runtime} ` : ''}${worst.security === 'plain' ? '' : `${worst.security} `}${worst.variant} ${worst.case} ${worst.transport}, ${worst.verdict}`;
}
