// CPU limits for what runs in the stage's namespaces (bench:service's replicas, ../service/replicas.ts):
// one CPU cgroup each, v1 (`cpu` hierarchy, cpu.cfs_quota_us over cpu.cfs_period_us) or v2 (cpu.max),
// whichever the kernel mounts, with the throttling it did read back from its cpu.stat. Named with the
// stage's prefix, so a killed run's are found and removed by the next start (sweepCgroups): the stage
// owns them, as it owns every namespace named after its run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lifetimeCovers } from '../../cli';
import { NAMESPACE_PREFIX } from './topology';

export type CgroupVersion = 'v1' | 'v2';

/** The CFS period every limit is expressed over (the kernel's default). */
export const CPU_PERIOD_US = 100_000;

export interface CpuHierarchy {
  version: CgroupVersion;
  /** Where groups are made: /sys/fs/cgroup/cpu (v1) or /sys/fs/cgroup (v2). */
  root: string;
}

export interface CpuCgroup extends CpuHierarchy {
  name: string;
  dir: string;
  /** The limit in thousandths of a core (500 = half a core); null: no limit, only accounted. */
  millicores: number | null;
  /** What was written, as the kernel's own file says it. */
  setting: string;
}

export interface CpuThrottling {
  periods: number;
  throttledPeriods: number;
  throttledMs: number;
}

/** The CPU hierarchy this kernel offers, or why there is none (`root` overridable for tests). */
export function cpuHierarchy(base = '/sys/fs/cgroup'): CpuHierarchy | string {
  const v2Controllers = path.join(base, 'cgroup.controllers');
  if (fs.existsSync(v2Controllers)) {
    const controllers = fs.readFileSync(v2Controllers, 'utf8').split(/\s+/);
    if (!controllers.includes('cpu')) return `cgroup v2 at ${base} offers no cpu controller (cgroup.controllers: ${controllers.join(' ').trim()})`;
    const subtree = fs.readFileSync(path.join(base, 'cgroup.subtree_control'), 'utf8').split(/\s+/);
    // Enabling it would change the host's hierarchy for every service on it: say so rather than do it.
    if (!subtree.includes('cpu')) return `cgroup v2 at ${base} does not delegate the cpu controller to its children (echo +cpu > ${base}/cgroup.subtree_control, as root, enables it)`;
    return { version: 'v2', root: base };
  }
  const v1 = path.join(base, 'cpu');
  if (fs.existsSync(path.join(v1, 'cpu.cfs_quota_us'))) return { version: 'v1', root: v1 };
  return `no CPU cgroup: neither cgroup v2 (${v2Controllers}) nor v1's cpu hierarchy (${v1}/cpu.cfs_quota_us) is mounted`;
}

/** `500m`, `1`, `1.5` (cores, as Kubernetes writes them) → thousandths of a core. */
export function parseCpuLimit(text: string): number {
  const m = /^(\d+)m$/.exec(text.trim()) ?? null;
  const millicores = m ? Number(m[1]) : /^\d+(\.\d+)?$/.test(text.trim()) ? Math.round(Number(text) * 1000) : NaN;
  if (!Number.isInteger(millicores) || millicores < 10 || millicores > 64_000) {
    throw new Error(`CPU limit ${JSON.stringify(text)}: give thousandths of a core (500m) or cores (1, 1.5), from 10m to 64`);
  }
  return millicores;
}

/** Creates the group and sets its limit; its name must carry the stage's prefix. */
export function createCpuCgroup(hierarchy: CpuHierarchy, name: string, millicores: number | null): CpuCgroup {
  if (!name.startsWith(NAMESPACE_PREFIX)) throw new Error(`cgroup ${name}: stage cgroups are named ${NAMESPACE_PREFIX}…`);
  const dir = path.join(hierarchy.root, name);
  fs.mkdirSync(dir);
  const quotaUs = millicores === null ? null : Math.round((millicores * CPU_PERIOD_US) / 1000);
  try {
    if (hierarchy.version === 'v1') {
      fs.writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(CPU_PERIOD_US));
      fs.writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), quotaUs === null ? '-1' : String(quotaUs));
      const setting = `cpu.cfs_quota_us ${fs.readFileSync(path.join(dir, 'cpu.cfs_quota_us'), 'utf8').trim()} / cpu.cfs_period_us ${fs.readFileSync(path.join(dir, 'cpu.cfs_period_us'), 'utf8').trim()}`;
      return { ...hierarchy, name, dir, millicores, setting };
    }
    fs.writeFileSync(path.join(dir, 'cpu.max'), `${quotaUs === null ? 'max' : quotaUs} ${CPU_PERIOD_US}`);
    // On cgroup v2 alone a process moved here leaves the tool's own cgroup: its keeper empties this one too.
    lifetimeCovers(dir);
    return { ...hierarchy, name, dir, millicores, setting: `cpu.max ${fs.readFileSync(path.join(dir, 'cpu.max'), 'utf8').trim()}` };
  } catch (error) {
    fs.rmdirSync(dir);
    throw error;
  }
}

/** argv that joins the group first and then execs `argv` (same PID), so the app is limited from its first instruction. */
export function inCgroup(group: CpuCgroup, argv: readonly string[]): string[] {
  return ['sh', '-c', 'echo $$ > "$0" && exec "$@"', path.join(group.dir, 'cgroup.procs'), ...argv];
}

/** nr_periods, nr_throttled and the throttled time, from the group's cpu.stat (v1: throttled_time ns; v2: throttled_usec). */
export function readThrottling(group: CpuCgroup): CpuThrottling {
  return parseCpuStat(fs.readFileSync(path.join(group.dir, 'cpu.stat'), 'utf8'));
}

export function parseCpuStat(text: string): CpuThrottling {
  const fields = new Map(
    text
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .map(([key, value]) => [key, Number(value)] as const),
  );
  const throttledMs = fields.has('throttled_usec') ? fields.get('throttled_usec')! / 1000 : (fields.get('throttled_time') ?? 0) / 1e6;
  return { periods: fields.get('nr_periods') ?? 0, throttledPeriods: fields.get('nr_throttled') ?? 0, throttledMs };
}

export function throttlingBetween(before: CpuThrottling, after: CpuThrottling): CpuThrottling {
  return { periods: after.periods - before.periods, throttledPeriods: after.throttledPeriods - before.throttledPeriods, throttledMs: after.throttledMs - before.throttledMs };
}

function pidsOf(dir: string): number[] {
  try {
    return fs
      .readFileSync(path.join(dir, 'cgroup.procs'), 'utf8')
      .split('\n')
      .map(Number)
      .filter((pid) => Number.isInteger(pid) && pid > 0);
  } catch {
    return [];
  }
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Kills what still runs in the group (by PID, from its own cgroup.procs) and removes it; a killed
 * process leaves the group a moment after SIGKILL, so removal is retried for up to 2 s. Synchronous:
 * it runs from exit hooks. Returns why it failed, or null.
 */
export function removeCgroup(dir: string): string | null {
  for (const pid of pidsOf(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 2000;
  for (;;) {
    try {
      fs.rmdirSync(dir);
      return null;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      if (code !== 'EBUSY' || Date.now() > deadline) return `remove cgroup ${dir}: ${(error as Error).message}`;
      pause(20);
    }
  }
}

/** Removes every stage cgroup (prefix nbx-) except those whose name starts with `keep` (a live run's), and only those `only` selects. */
export function sweepCgroups(keep: string | null, base = '/sys/fs/cgroup', only: (name: string) => boolean = () => true): { removed: string[]; failures: string[] } {
  const hierarchy = cpuHierarchy(base);
  const removed: string[] = [];
  const failures: string[] = [];
  if (typeof hierarchy === 'string') return { removed, failures };
  let names: string[] = [];
  try {
    names = fs.readdirSync(hierarchy.root, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name.startsWith(NAMESPACE_PREFIX)).map((e) => e.name);
  } catch {
    return { removed, failures };
  }
  for (const name of names.filter((n) => (keep === null || !n.startsWith(keep)) && only(n))) {
    const failure = removeCgroup(path.join(hierarchy.root, name));
    if (failure) failures.push(failure);
    else removed.push(name);
  }
  return { removed, failures };
}
