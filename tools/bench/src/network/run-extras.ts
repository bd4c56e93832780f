// What a stage may own beyond its three namespaces — replica namespaces (replicas.ts), their CPU
// cgroups (cgroups.ts) and per-namespace files under /etc/netns (balancing.ts's hosts file) — all
// named after the run, so teardown and the next start find them by name, also after SIGKILL.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sweepCgroups } from './cgroups';
import { listNamespaces } from './namespaces';
import { NAMESPACE_PREFIX } from './topology';

/** Where `ip netns exec` finds a namespace's own /etc files (bind-mounted over /etc/<file>). */
export const NETNS_ETC = '/etc/netns';

export const runPrefix = (runId: string) => `${NAMESPACE_PREFIX}${runId}-`;

/** Every namespace named after the run (its client, router, server, replicas, …). */
export function runNamespaces(runId: string): string[] {
  try {
    return listNamespaces().filter((ns) => ns.startsWith(runPrefix(runId)));
  } catch {
    return [];
  }
}

/** Removes /etc/netns/<ns> folders of stage namespaces, except those starting with `keep`. */
export function sweepNetnsEtc(keep: string | null, base = NETNS_ETC): string[] {
  let names: string[] = [];
  try {
    names = fs.readdirSync(base).filter((name) => name.startsWith(NAMESPACE_PREFIX) && (keep === null || !name.startsWith(keep)));
  } catch {
    return [];
  }
  for (const name of names) fs.rmSync(path.join(base, name), { recursive: true, force: true });
  removeIfEmpty(base, names.length > 0);
  return names;
}

/** After the run's processes are gone: its cgroups and /etc/netns folders (the namespaces go with the stage's own); returns what failed. */
export function removeRunExtras(runId: string): string[] {
  const prefix = runPrefix(runId);
  const { failures } = sweepCgroups(null, undefined, (name) => name.startsWith(prefix));
  let names: string[] = [];
  try {
    names = fs.readdirSync(NETNS_ETC).filter((name) => name.startsWith(prefix));
  } catch {
    return failures;
  }
  for (const name of names) fs.rmSync(path.join(NETNS_ETC, name), { recursive: true, force: true });
  removeIfEmpty(NETNS_ETC, names.length > 0);
  return failures;
}

/** /etc/netns itself goes only if we emptied it: never a folder other tools use. */
function removeIfEmpty(dir: string, weRemovedSomething: boolean): void {
  try {
    if (weRemovedSomething && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
  } catch {
    // kept
  }
}
