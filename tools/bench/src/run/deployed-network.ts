// With --client-url in a container or a pod, the bench and the apps are not on loopback: the cells, the
// path measurement's key and the report name the network the deployment put them on. The bench knows its
// deployment from its own environment (docker-compose.yml sets BENCH_DEPLOYMENT; the kubelet sets
// KUBERNETES_SERVICE_HOST), the same reading its confinement records.
import { deploymentOf } from '@bench/config';
import type { PathProfile } from '../network/path';

/** Each deployment's network: its name in cells and paths, and what it is. */
const DEPLOYED_NETWORKS: Readonly<Record<string, { name: string; what: string }>> = Object.freeze({
  'docker-compose': { name: 'docker-bridge', what: "The Docker bridge network docker-compose made for the file's services (container DNS names, no NAT between them)" },
  kubernetes: { name: 'pod-network', what: "The cluster's pod network (Service names through the cluster's DNS, ClusterIPs through kube-proxy)" },
});

/** A name that is safe wherever a network's name goes (cell keys, log folders). */
const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'deployment';

/**
 * The network a --client-url run measures across, as the bench's environment says: the deployment's own
 * network by name, or, with no deployment known (apps started by hand, two hosts), the profile it was
 * given, described as no stage at all. Profiles with a stage never reach here (--client-url refuses them).
 */
export function deployedNetwork(given: PathProfile, clientUrl: string, env: NodeJS.ProcessEnv = process.env): PathProfile {
  const reached = `no stage: the apps run where their deployment put them, reached at ${clientUrl} (--client-url)`;
  const deployment = deploymentOf(env);
  if (deployment === null) return { ...given, network: { ...given.network, description: reached.replace(/^n/, 'N') } };
  const known = DEPLOYED_NETWORKS[deployment] ?? { name: `${slug(deployment)}-network`, what: `The network ${deployment} put the apps on` };
  return { name: known.name, features: [], network: { ...given.network, name: known.name, topology: 'deployment', description: `${known.what}; ${reached}` } };
}
