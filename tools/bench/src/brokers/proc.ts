// What /proc says about a broker's process: its CPU and memory (as the apps' samples), its start time
// (a PID reused by a later process is not ours) and its descendants (RabbitMQ's beam.smp).
import * as fs from 'node:fs';
import type { BrokerSample } from './contract';

/** Clock ticks per second of /proc/<pid>/stat's times: 100 on Linux's every mainstream architecture. */
const TICKS_PER_SECOND = 100;

function statFields(pid: number, proc: string): string[] | null {
  try {
    const stat = fs.readFileSync(`${proc}/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** When the process started (ticks since boot), or null when it is gone. */
export function startTicksOf(pid: number, proc = '/proc'): number | null {
  const fields = statFields(pid, proc);
  return fields ? Number(fields[19]) : null;
}

/** Whether the process runs (not a zombie) and, given its start time, is the one we started. */
export function isOurs(pid: number, startTicks: number | null, proc = '/proc'): boolean {
  const fields = statFields(pid, proc);
  if (!fields || fields[0] === 'Z') return false;
  return startTicks === null || Number(fields[19]) === startTicks;
}

/** The first descendant of `pid` whose command is `name` (breadth first), or null. */
export function descendantNamed(pid: number, name: string, proc = '/proc'): number | null {
  const children = new Map<number, number[]>();
  const names = new Map<number, string>();
  for (const entry of fs.readdirSync(proc)) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`${proc}/${entry}/stat`, 'utf8');
      const child = Number(entry);
      names.set(child, stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), child]);
    } catch {
      // gone meanwhile
    }
  }
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length) {
    const next = queue.shift()!;
    if (names.get(next) === name) return next;
    queue.push(...(children.get(next) ?? []));
  }
  return null;
}

function statusKb(text: string, key: string): number {
  return Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
}

/**
 * The process's CPU time to the nanosecond: the run time of each of its threads (the first field of
 * /proc/<pid>/task/<tid>/schedstat), user and system together, in ms. /proc/<pid>/stat counts in clock
 * ticks (10 ms), too coarse for a call that costs a broker tens of µs. A thread that ended takes its time
 * with it (a difference of two readings may then fall short). 0 when the process is gone.
 */
export function runTimeMs(pid: number, proc = '/proc'): number {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`${proc}/${pid}/task`);
  } catch {
    return 0;
  }
  let ns = 0;
  for (const task of tasks) {
    try {
      ns += Number(fs.readFileSync(`${proc}/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // ended meanwhile
    }
  }
  return ns / 1e6;
}

/**
 * The process's CPU (user, system) and memory now; `resetPeak` then resets the kernel's peak (VmHWM,
 * by writing 5 to clear_refs, which root may) so the next reading's peak is that window's.
 */
export function sampleProcess(pid: number, resetPeak: boolean, proc = '/proc'): BrokerSample {
  const fields = statFields(pid, proc);
  let status = '';
  try {
    status = fs.readFileSync(`${proc}/${pid}/status`, 'utf8');
  } catch {
    status = '';
  }
  const sample: BrokerSample = {
    pid,
    cpuUserMs: fields ? (Number(fields[11]) * 1000) / TICKS_PER_SECOND : 0,
    cpuSystemMs: fields ? (Number(fields[12]) * 1000) / TICKS_PER_SECOND : 0,
    cpuMs: runTimeMs(pid, proc),
    rssBytes: statusKb(status, 'VmRSS') * 1024,
    peakRssBytes: statusKb(status, 'VmHWM') * 1024,
  };
  if (resetPeak) {
    try {
      fs.writeFileSync(`${proc}/${pid}/clear_refs`, '5');
    } catch {
      // not root, or gone: the peak stays the lifetime's
    }
  }
  return sample;
}
