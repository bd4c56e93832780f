// What a stage may own beyond its three namespaces, named after the run so teardown and the next start
// find it by name, also after SIGKILL: replica namespaces (../service/replicas.ts) and their CPU cgroups
// (cgroups.ts). /etc/netns folders are namespaces.ts's removeNetnsEtc.
import { sweepCgroups } from './cgroups';
import { listNamespaces } from './namespaces';
import { NAMESPACE_PREFIX } from './topology';


export const runPrefix = (runId: string) => `${NAMESPACE_PREFIX}${runId}-`;

/** Every namespace named after the run (its client, router, server, replicas, …). */
export function runNamespaces(runId: string): string[] {
  try {
    return listNamespaces().filter((ns) => ns.startsWith(runPrefix(runId)));
  } catch {
    return [];
  }
}

/** After the run's processes are gone: its replicas' CPU cgroups; returns what failed. */
export function removeRunCgroups(runId: string): string[] {
  const prefix = runPrefix(runId);
  return sweepCgroups(null, undefined, (name) => name.startsWith(prefix)).failures;
}
