import * as fs from 'node:fs';
import { processStartTicks } from '../../cli';
import { run } from './shell';

/** Named network namespaces (`ip netns list`), names only. */
export function listNamespaces(): string[] {
  return run(['ip', 'netns', 'list'])
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[0])
    .filter(Boolean);
}

/** PIDs of the processes whose network namespace is `ns` (`ip netns pids`). */
export function namespacePids(ns: string): number[] {
  try {
    return run(['ip', 'netns', 'pids', ns])
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((pid) => Number.isInteger(pid) && pid > 0);
  } catch {
    return []; // already gone
  }
}

/** Whether `pid` is a live process (not a zombie waiting to be reaped). */
export function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** When the process started, in clock ticks since boot: with the PID, it tells a process from a later one reusing its PID. */
export const startTicks = processStartTicks;

/**
 * Removes /etc/netns/<ns>/ (files `ip netns exec` mounts over /etc: a path's resolv.conf) of the given
 * namespaces, and of every stage namespace that no longer exists (a run killed between the two).
 */
export function removeNetnsEtc(namespaces: readonly string[], isOurs: (name: string) => boolean, etc = '/etc/netns'): string[] {
  let existing: string[] = [];
  try {
    existing = fs.readdirSync(etc);
  } catch {
    return [];
  }
  const alive = new Set(listNamespaces());
  const doomed = existing.filter((name) => isOurs(name) && (namespaces.includes(name) || !alive.has(name)));
  for (const name of doomed) fs.rmSync(`${etc}/${name}`, { recursive: true, force: true });
  return doomed;
}
