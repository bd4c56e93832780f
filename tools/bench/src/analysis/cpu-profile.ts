// What the reports read from the cells' CPU profiles (--cpu-profile, model/cpu-profile.ts): each process's
// time by package per call, and between two transports of a case the package whose CPU differs most, which
// the verdict names when the remainder (framework, transport and waiting) is what separates them.
import { cellPackagesPerCall, IDLE, networkOf, packagePerCallMs, runtimeOf, securityOf, type Cell, type ProcessCpuProfile, type ProfiledRecord } from '../model';

/** A package's share of a process's profile, per profiled call. */
export interface PackageShare {
  package: string;
  perCallMs: number;
  /** Of the process's busy time (idle left out). */
  share: number;
}

/** One process of one profiled cell (or a suite's unit), as the tables show it. */
export interface CpuProfileRow<T extends ProfiledRecord = ProfiledRecord> {
  cell: T;
  profile: ProcessCpuProfile;
  /** Busy (on-CPU) time per profiled call. */
  busyPerCallMs: number;
  /** Every package but (idle), largest first. */
  packages: PackageShare[];
}

/** The rows of every profiled cell, in the document's order, a row per process that was profiled. */
export function cpuProfileRows<T extends ProfiledRecord>(results: readonly T[]): CpuProfileRow<T>[] {
  return results.flatMap((cell) =>
    (cell.cpuProfile?.processes ?? []).map((profile) => ({
      cell,
      profile,
      busyPerCallMs: profile.calls > 0 ? profile.busyMs / profile.calls : 0,
      packages: profile.packages
        .filter((p) => p.package !== IDLE)
        .map((p) => ({ package: p.package, perCallMs: packagePerCallMs(profile, p.package), share: profile.busyMs > 0 ? p.selfMs / profile.busyMs : 0 })),
    })),
  );
}

/** Between two cells' sets of processes: a package's CPU per call in each, and the difference. */
export interface PackageGap {
  package: string;
  slowMs: number;
  fastMs: number;
}

/** The package whose CPU per call (every process of the set added up) differs most between two profiled cells; null unless both were profiled. */
export function widestPackageGap(slow: Cell, fast: Cell): PackageGap | null {
  if (!slow.cpuProfile || !fast.cpuProfile) return null;
  const s = cellPackagesPerCall(slow.cpuProfile);
  const f = cellPackagesPerCall(fast.cpuProfile);
  const gaps = [...new Set([...s.keys(), ...f.keys()])].map((name) => ({ package: name, slowMs: s.get(name) ?? 0, fastMs: f.get(name) ?? 0 }));
  return gaps.sort((a, b) => Math.abs(b.slowMs - b.fastMs) - Math.abs(a.slowMs - a.fastMs))[0] ?? null;
}

/** Cells of the same case, variant and place (network, runtime, security) that were profiled: the flame graphs' and the diff's groups. */
export function profiledGroups<T extends ProfiledRecord>(results: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const cell of results) {
    if (!cell.cpuProfile) continue;
    const key = [networkOf(cell), runtimeOf(cell), securityOf(cell), cell.variant, cell.case].join('\u0000');
    groups.set(key, [...(groups.get(key) ?? []), cell]);
  }
  return [...groups.values()];
}
