// What an older run killed with SIGKILL left behind, removed at every run's start (runExperiment), not only
// at the next stage's or broker's: its processes ended with it (cli/lifetime.ts), but not its network
// namespaces (and their iptables rules), CPU cgroups, /etc/netns folders, stage work folders, broker state
// and folders, certificate folders and CPU-profile sockets. What a live run owns is kept: the stage lock's
// holder's namespaces, a live owner's brokers and folders.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { errorText, ownerRuns, processStartTicks } from '../cli';
import { sweepLeftovers } from '../brokers';
import { cleanupLeftovers } from '../network/stage';
import { sweepCertificates } from '../security';

/** The temp folders a run names after itself (`<prefix><pid>-<start ticks>-XXXXXX`): the brokers' and the CPU profiles' sockets. */
export const OWNED_TEMP_PREFIXES = Object.freeze(['nbx-run-brokers-', 'bench-cpu-']);

/** A new temp folder named after this process, so that a sweep knows its owner from its name alone. */
export function ownedTempDir(prefix: (typeof OWNED_TEMP_PREFIXES)[number], parent: string = os.tmpdir()): string {
  return fs.mkdtempSync(path.join(parent, `${prefix}${process.pid}-${processStartTicks(process.pid) ?? 0}-`));
}

/** Removes the owned temp folders under `parent` whose owner no longer runs; returns them. */
export function sweepOwnedTemps(parent: string = os.tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return removed;
  }
  for (const name of names) {
    const prefix = OWNED_TEMP_PREFIXES.find((p) => name.startsWith(p));
    const owner = prefix ? /^(\d+)-(\d+)-[A-Za-z0-9]{6}$/.exec(name.slice(prefix.length)) : null;
    if (!owner) continue;
    if (ownerRuns(Number(owner[1]), Number(owner[2]))) continue;
    fs.rmSync(path.join(parent, name), { recursive: true, force: true });
    removed.push(path.join(parent, name));
  }
  return removed;
}

/**
 * Every sweep of what dead runs left, in order: the brokers first (their processes, state and folders),
 * then, as root, the stage's namespaces, cgroups and folders, then the owned temp folders and
 * certificates. Returns what it removed and what it could not, never throwing: a sweep that fails must
 * not stop the run it precedes.
 */
export function sweepDeadRuns(): { removed: string[]; failures: string[] } {
  const removed: string[] = [];
  const failures: string[] = [];
  const attempt = (what: string, sweep: () => void) => {
    try {
      sweep();
    } catch (error) {
      failures.push(`${what}: ${errorText(error)}`);
    }
  };
  attempt('brokers', () => removed.push(...sweepLeftovers().removed));
  if (process.getuid?.() === 0) {
    attempt('stage', () => {
      const stage = cleanupLeftovers();
      removed.push(...stage.removed, ...stage.etc, ...stage.workDirs);
      failures.push(...stage.failures);
    });
  }
  attempt('temp folders', () => removed.push(...sweepOwnedTemps()));
  attempt('certificates', () => removed.push(...sweepCertificates()));
  return { removed, failures };
}
