import * as fs from 'node:fs';
import { teardownPlan, type TeardownStep } from './commands';
import { isHeld, lockPath, readLock } from './lock';
import { listNamespaces, namespacePids, removeNetnsEtc } from './namespaces';
import { sweepCgroups } from './cgroups';
import { runPrefix } from './run-extras';
import { tryRun } from './shell';
import { isStageNamespace } from './topology';
import { sweepWorkDirs } from './work-dirs';
import { errorText } from '../../cli';

/** Runs teardown steps in order, going on past failures; returns what failed. */
export function runTeardown(steps: readonly TeardownStep[]): string[] {
  const failures: string[] = [];
  for (const step of steps) {
    if (step.kind === 'signal') {
      try {
        process.kill(step.pid, step.signal);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') failures.push(`${step.why}: kill ${step.pid}: ${errorText(error)}`);
      }
    } else {
      const failure = tryRun({ argv: step.argv, why: step.why });
      if (failure) failures.push(failure);
    }
  }
  return failures;
}

/** What cleanupLeftovers removed, and what it could not. */
export interface CleanupReport {
  /** Namespaces, then `cgroup <name>` for replicas' CPU cgroups. */
  removed: string[];
  killed: number[];
  failures: string[];
  /** Stage work folders of dead runs, removed. */
  workDirs: string[];
  /** /etc/netns/<ns> folders of dead runs' namespaces, removed. */
  etc: string[];
  /** Namespaces left alone because a live run holds the lock for them. */
  kept: string[];
}

/**
 * Removes every namespace with our prefix left by a run that was killed (SIGKILL skips every exit
 * hook), after killing what still runs in them (the delayer, forwarders, apps), a lock whose holder is
 * dead, and dead runs' work folders (work-dirs.ts). The namespaces of a run that still holds the lock are kept, unless it is this
 * process: call it before building a stage (startStage does) or from `bench:network down`.
 */
export function cleanupLeftovers(): CleanupReport {
  const holder = readLock();
  const live = holder && isHeld(holder) && holder.pid !== process.pid ? holder : null;
  if (holder && !live && holder.pid !== process.pid) fs.rmSync(lockPath(), { force: true });
  // A live run owns every namespace named after it (its replicas' too), not only the three it locked.
  const liveNamespaces = new Set(live ? Object.values(live.namespaces) : []);
  const liveOwns = (ns: string) => liveNamespaces.has(ns) || (live !== null && ns.startsWith(runPrefix(live.runId)));
  const ours = listNamespaces().filter(isStageNamespace);
  const stale = ours.filter((ns) => !liveOwns(ns));
  const pids = new Map(stale.map((ns) => [ns, namespacePids(ns)]));
  const failures = runTeardown(teardownPlan(stale, pids, null));
  // Namespaces a live run holds keep their files; any other stage namespace's are a dead run's.
  const etc = removeNetnsEtc(stale, (name) => isStageNamespace(name) && !liveOwns(name));
  // What dead runs' replicas left outside their namespaces: their CPU cgroups.
  const cgroups = sweepCgroups(live ? runPrefix(live.runId) : null);
  failures.push(...cgroups.failures);
  // Work folders of dead runs; ownerless (older) ones only when no other stage lives to own them.
  const workDirs = sweepWorkDirs({ ownerlessToo: live === null });
  return { removed: [...stale, ...cgroups.removed.map((name) => `cgroup ${name}`)], etc, workDirs, killed: [...pids.values()].flat(), failures, kept: ours.filter(liveOwns) };
}
