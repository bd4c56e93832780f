// The cells' CPU profiles (--cpu-profile) in results.md's words and as cpu-profiles.csv: each process's
// time by package per call and its top functions (analysis/cpu-profile.ts reads them from the document).
import { networkOf, runtimeOf, securityOf, type ProfiledRecord } from '../model';
import { cpuProfileRows, type CpuProfileRow } from '../analysis';
import { cell as csvCell } from './csv';

/** Packages a results.md row names, the largest first. */
const MD_PACKAGES = 6;

const fmt = (v: number) => (v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toFixed(3));
const pct = (share: number) => `${Math.round(share * 100)} %`;

function packagesText(row: CpuProfileRow): string {
  return row.packages
    .slice(0, MD_PACKAGES)
    .map((p) => `${p.package} ${fmt(p.perCallMs)} (${pct(p.share)})`)
    .join(', ');
}

/** results.md's section: a row per cell and process, its busy time and largest packages per call, its top function; empty without profiles. */
export function renderCpuProfileMarkdown(results: readonly ProfiledRecord[]): string[] {
  const rows = cpuProfileRows(results);
  if (rows.length === 0) return [];
  const interval = results.find((r) => r.cpuProfile)!.cpuProfile!.intervalUs;
  return [
    '## CPU profiles: who spends the time (per call)',
    '',
    `Each app profiled over the timed calls only (--cpu-profile; V8's profiler in Node, every ${interval} µs, runtime/pprof in Go, every 4 ms), a cell's calls merged. ` +
      "Busy: the process's sampled time on a CPU, per call; packages by self time per call and share of busy; (idle) left out. " +
      'Profiles in the run folder (profiles/), flame graphs in report.html.',
    '',
    '| variant | case | transport | process | calls | busy ms | packages, ms per call (share) | top function |',
    '|---|---|---|---|---:|---:|---|---|',
    ...rows.map((r) => {
      const top = r.profile.functions[0];
      const fn = top ? `${top.name} (${top.package}) ${fmt(r.profile.calls > 0 ? top.selfMs / r.profile.calls : 0)}` : '–';
      const error = r.profile.error ? ` ⚠ ${r.profile.error}` : '';
      return `| ${r.cell.variant} | ${r.cell.case} | ${r.cell.transport} | ${r.profile.process} | ${r.profile.calls} | ${fmt(r.busyPerCallMs)} | ${packagesText(r) || '–'}${error} | ${fn.replace(/\|/g, '\\|')} |`;
    }),
    '',
  ];
}

const COLUMNS = ['row_type', 'network', 'node', 'security', 'variant', 'case', 'transport', 'process', 'calls', 'name', 'package', 'where', 'self_ms', 'self_ms_per_call', 'share_of_busy', 'file'];

/**
 * cpu-profiles.csv: per profiled cell and process, one `package` row per package (self time) and one
 * `function` row per top function, with a `row_type` column as in results.csv; the header alone without profiles.
 */
export function renderCpuProfileCsv(results: readonly ProfiledRecord[]): string {
  const lines = [COLUMNS.join(',')];
  for (const r of cpuProfileRows(results)) {
    const { cell, profile } = r;
    const key = [networkOf(cell), runtimeOf(cell), securityOf(cell), cell.variant, cell.case, cell.transport, profile.process, profile.calls];
    const perCall = (ms: number) => (profile.calls > 0 ? ms / profile.calls : null);
    const share = (ms: number) => (profile.busyMs > 0 ? ms / profile.busyMs : null);
    for (const p of profile.packages) lines.push(['package', ...key, p.package, p.package, '', p.selfMs, perCall(p.selfMs), share(p.selfMs), profile.file].map(csvCell).join(','));
    for (const f of profile.functions) lines.push(['function', ...key, f.name, f.package, f.where, f.selfMs, perCall(f.selfMs), share(f.selfMs), profile.file].map(csvCell).join(','));
  }
  return lines.join('\n') + '\n';
}

/** Whether a document has profiles to export (cpu-profiles.csv is written only then). */
export function hasCpuProfiles(results: readonly ProfiledRecord[]): boolean {
  return results.some((r) => r.cpuProfile !== undefined);
}
