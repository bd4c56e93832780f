// The machine's CPU around a visit, from /proc (issue #43): the busy time of every process (/proc/stat's
// user + nice + system), the run's own processes' share of it (the bench and every process below it: its
// apps, their children, the stage's helpers; reaped children through their parent's cutime/cstime), and
// steal. What is left is what processes outside the run used while the visit was measured.
import * as fs from 'node:fs';
import type { VisitDisturbance } from '../model';

/** One reading of the machine's CPU counters, in clock ticks (USER_HZ). */
export interface CpuReading {
  /** Every CPU's time, all columns (busy, idle, iowait, irq, softirq, steal). */
  total: number;
  /** Processes' time: user + nice + system (irq and softirq apart: on loopback the run's own packets). */
  processes: number;
  steal: number;
  /** The run's processes: the roots and every process below them, with their reaped children. */
  run: number;
}

/** The `cpu` line of /proc/stat: [processes, steal, total]. */
export function parseProcStat(text: string): { processes: number; steal: number; total: number } {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('no cpu line in /proc/stat');
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  // guest and guest_nice are already inside user and nice.
  return { processes: user + nice + system, steal: steal ?? 0, total: user + nice + system + idle + (iowait ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0) };
}

/** /proc/<pid>/stat's parent and CPU (utime + stime + cutime + cstime, ticks); null for a process gone meanwhile. */
export function parsePidStat(text: string): { ppid: number; ticks: number } | null {
  // The command name is in parentheses and may hold spaces or parentheses: fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).trim().split(/\s+/);
  if (fields.length < 15) return null;
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
  return { ppid: Number(fields[1]), ticks: utime + stime + cutime + cstime };
}

function processes(): Map<number, { ppid: number; ticks: number }> {
  const all = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = parsePidStat(fs.readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (stat) all.set(Number(entry), stat);
    } catch {
      // exited while the list was read
    }
  }
  return all;
}

/** The ticks of `roots` and every process below them. */
export function treeTicks(all: ReadonlyMap<number, { ppid: number; ticks: number }>, roots: readonly number[]): number {
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of all) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const seen = new Set<number>();
  const stack = [...roots];
  let ticks = 0;
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    ticks += all.get(pid)?.ticks ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return ticks;
}

/** Reads the machine's CPU and the run's (the processes from `roots` down); null where /proc cannot be read. */
export function readCpu(roots: readonly number[]): CpuReading | null {
  try {
    const machine = parseProcStat(fs.readFileSync('/proc/stat', 'utf8'));
    return { ...machine, run: treeTicks(processes(), roots) };
  } catch {
    return null;
  }
}

/** The shares of the machine's CPU between two readings: outside the run (never below 0), and steal. */
export function sharesBetween(before: CpuReading, after: CpuReading): Pick<VisitDisturbance, 'outsideShare' | 'stealShare'> | null {
  const total = after.total - before.total;
  if (total <= 0) return null;
  const outside = Math.max(0, after.processes - before.processes - (after.run - before.run));
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { outsideShare: round(outside / total), stealShare: round((after.steal - before.steal) / total) };
}
