// Waiting until the idle app sets are really idle before a visit times anything.
import * as fs from 'node:fs';
import type { QuietRule } from '../model';

export const QUIET_RULE: QuietRule = Object.freeze({ windowMs: 200, maxTicks: 1, timeoutMs: 5_000 });

/** user + system CPU ticks (fields 14 and 15) from the text of /proc/<pid>/stat. */
export function parseCpuTicks(stat: string): number {
  // The command name (field 2) may contain spaces and parentheses; the fields after it start past the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** user + system CPU ticks a process has used; null once it is gone (or where there is no /proc). */
export function readCpuTicks(pid: number): number | null {
  try {
    return parseCpuTicks(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

export interface QuietResult {
  /** How long the wait took (at least one window). */
  waitedMs: number;
  /** False when the timeout ended the wait with some process still busy. */
  quiet: boolean;
}

/**
 * Waits window by window until none of `pids` used more than `rule.maxTicks` ticks in the last window.
 * Processes that have exited count as quiet. Where /proc is missing, every reading is null: no wait
 * beyond one window. No pids: no wait at all.
 */
export async function waitUntilQuiet(
  pids: readonly number[],
  rule: QuietRule = QUIET_RULE,
  read: (pid: number) => number | null = readCpuTicks,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => number = () => performance.now(),
): Promise<QuietResult> {
  if (pids.length === 0) return { waitedMs: 0, quiet: true };
  const began = now();
  for (;;) {
    const before = pids.map(read);
    await sleep(rule.windowMs);
    const after = pids.map(read);
    const busy = after.some((ticks, i) => ticks !== null && before[i] !== null && ticks - before[i]! > rule.maxTicks);
    const waitedMs = now() - began;
    if (!busy) return { waitedMs, quiet: true };
    if (waitedMs >= rule.timeoutMs) return { waitedMs, quiet: false };
  }
}
