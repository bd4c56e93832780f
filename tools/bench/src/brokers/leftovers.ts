// Brokers outlive a bench killed with SIGKILL (no exit hook runs): each running instance is written
// down in a state file (its owner, its processes with their start times, its folder), and the next
// start — or `bench:brokers -- sweep` — stops what a dead owner left and removes its folder.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isOurs, startTicksOf } from './proc';

export interface ProcessRef {
  pid: number;
  startTicks: number | null;
  /** Started as its own process group's leader: the whole group is signalled (a start script's children too). */
  group: boolean;
}

export interface InstanceState {
  kind: string;
  owner: { pid: number; startTicks: number | null };
  processes: ProcessRef[];
  dir: string;
}

export const BROKER_STATE_ENV = 'BENCH_BROKER_STATE';

/** `$BENCH_BROKER_STATE`, else <tmp>/nbx-brokers: one file per running instance. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return env[BROKER_STATE_ENV] ? path.resolve(env[BROKER_STATE_ENV]!) : path.join(os.tmpdir(), 'nbx-brokers');
}

/** Writes (or rewrites) an instance's state; returns its file. */
export function writeState(file: string, state: InstanceState): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
}

export function newStateFile(kind: string, dir = stateDir()): string {
  return path.join(dir, `${process.pid}-${kind}-${Math.random().toString(36).slice(2, 8)}.json`);
}

export function ownerRef(): InstanceState['owner'] {
  return { pid: process.pid, startTicks: startTicksOf(process.pid) };
}

/** SIGKILLs what of an instance still runs: by process group where it leads one, each by PID, only if still ours. */
export function killInstance(processes: readonly ProcessRef[], signal: NodeJS.Signals = 'SIGKILL'): number[] {
  const killed: number[] = [];
  for (const ref of processes) {
    if (!isOurs(ref.pid, ref.startTicks)) continue;
    try {
      process.kill(ref.group ? -ref.pid : ref.pid, signal);
      killed.push(ref.pid);
    } catch {
      // gone meanwhile
    }
  }
  return killed;
}

export interface SweepReport {
  /** `<kind> <folder>` per instance removed. */
  removed: string[];
  killed: number[];
  /** Instances whose owner still runs. */
  live: string[];
}

/** Stops and removes every instance whose owner is dead (a bench killed with SIGKILL). */
export function sweepLeftovers(dir = stateDir()): SweepReport {
  const report: SweepReport = { removed: [], killed: [], live: [] };
  let files: string[];
  try {
    files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return report;
  }
  for (const name of files) {
    const file = path.join(dir, name);
    let state: InstanceState;
    try {
      state = JSON.parse(fs.readFileSync(file, 'utf8')) as InstanceState;
    } catch {
      fs.rmSync(file, { force: true });
      continue;
    }
    if (state.owner.pid === process.pid || isOurs(state.owner.pid, state.owner.startTicks)) {
      report.live.push(`${state.kind} (owner pid ${state.owner.pid})`);
      continue;
    }
    report.killed.push(...killInstance(state.processes));
    waitGone(state.processes, 3000);
    fs.rmSync(state.dir, { recursive: true, force: true });
    fs.rmSync(file, { force: true });
    report.removed.push(`${state.kind} ${state.dir}`);
  }
  return report;
}

/** Waits (blocking: it runs in exit hooks too) until none of the processes runs, at most `ms`. */
export function waitGone(processes: readonly ProcessRef[], ms: number): void {
  const deadline = Date.now() + ms;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (processes.some((ref) => isOurs(ref.pid, ref.startTicks)) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 20);
}
