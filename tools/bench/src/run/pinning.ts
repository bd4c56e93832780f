import { execFileSync } from 'node:child_process';
import type { Pinning } from '../model';

/** Fewer cores than this and pinning would leave an app without a core of its own. */
export const MIN_CORES_TO_PIN = 4;

/**
 * Decides pinning: the client and each server on a core of its own (0, 1, 2), the rest for the bench
 * and the system. Pure, so the rules are tested without taskset.
 */
export function planPinning(requested: boolean, cpuCount: number, hasTaskset: boolean): Pinning {
  const base = { requested, cpuCount, pinned: false, cores: null };
  if (!requested) return { ...base, reason: 'not requested (--pin)' };
  if (cpuCount < MIN_CORES_TO_PIN) return { ...base, reason: `${cpuCount} cores; pinning needs at least ${MIN_CORES_TO_PIN}` };
  if (!hasTaskset) return { ...base, reason: 'taskset not found (util-linux)' };
  return { ...base, pinned: true, cores: { client: '0', 'server-a': '1', 'server-b': '2' }, reason: null };
}

export function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
