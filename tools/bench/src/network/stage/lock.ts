import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isAlive, startTicks } from './namespaces';

/** What the lock file says about the network run holding it (also what `status` and `shell` read). */
export interface LockInfo {
  pid: number;
  /** The holder's start time (ticks since boot): a later process reusing the PID does not hold the lock. */
  startTicks: number | null;
  runId: string;
  profile: string;
  namespaces: { client: string; router: string; server: string };
  startedAt: string;
}

/** Only one network stage may exist at a time: they would share the machine's CPUs and the xtables lock. */
export function lockPath(): string {
  const dir = process.env.NETWORK_STAGE_LOCK_DIR ?? (isWritableDir('/run') ? '/run' : os.tmpdir());
  return path.join(dir, 'nbx-network.lock');
}

export class LockHeldError extends Error {
  override name = 'LockHeldError';
}

export function readLock(file = lockPath()): LockInfo | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as LockInfo;
  } catch {
    return null;
  }
}

/** Whether the holder named in the lock still runs (same PID and same start time). */
export function isHeld(info: LockInfo): boolean {
  return isAlive(info.pid) && (info.startTicks === null || startTicks(info.pid) === info.startTicks);
}

/** Describes a live holder, for refusal messages. */
export function describeHolder(info: LockInfo): string {
  return `another network run is active (pid ${info.pid}, profile ${info.profile}, run ${info.runId}, since ${info.startedAt}): wait for it to end, or take it down with \`npx nx run bench:network -- down\``;
}

/**
 * Takes the lock for this process, or throws LockHeldError naming the live holder. A lock whose holder
 * is dead (a run killed with SIGKILL) is taken over.
 */
export function acquireLock(info: Omit<LockInfo, 'pid' | 'startTicks' | 'startedAt'>, file = lockPath()): () => void {
  const mine: LockInfo = { ...info, pid: process.pid, startTicks: startTicks(process.pid), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, `${JSON.stringify(mine, null, 2)}\n`, { flag: 'wx' });
      return () => releaseLock(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readLock(file);
    if (holder && isHeld(holder)) throw new LockHeldError(describeHolder(holder));
    fs.rmSync(file, { force: true }); // stale: its holder is gone
  }
  throw new LockHeldError(`could not take the network lock ${file}: another run took it at the same moment`);
}

/** Removes the lock if this process holds it. */
export function releaseLock(file = lockPath()): void {
  const holder = readLock(file);
  if (holder && holder.pid === process.pid) fs.rmSync(file, { force: true });
}

function isWritableDir(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
