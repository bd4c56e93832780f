// The path services really take (issue #34): on top of a network profile's stage, service names
// resolved by a real DNS server and/or a sidecar mesh (Envoy beside the client and the servers).
// A path profile is `<network profile>+<feature>+…` (region+names, region+mesh+names); each feature is
// a record below, and every suite and bench:all take path profiles wherever they take a network profile.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeCertificates, removeCertificates, type CertificateSet } from '../security';
import { CLUSTER, DNS_ADDRESS, DnsServer, dnsCountsBetween, dnsmasqArgv, dnsmasqMissing, netnsEtcDir, podResolvConf, searchDomains, SERVICE_NAMES, serviceFqdn, startClusterDns, type DnsCounts } from './cluster-dns';
import { ENVOY, resolveEnvoy } from './envoy-binary';
import { findProfile, loadProfiles, usesStage, type NetworkProfile } from './profile';
import { EnvoyProcess, type EnvoyCounters } from './envoy-process';
import { captureRules, clientEnvoyConfig, ENVOY_CONCURRENCY, meshRoutes, serverEnvoyConfig, type MeshRoute } from './sidecars';
import { run } from './shell';
import type { Stage } from './stage';

export type PathFeatureId = 'names' | 'mesh';

export interface PathFeature {
  id: PathFeatureId;
  description: string;
}

export const PATH_FEATURES: readonly PathFeature[] = Object.freeze([
  {
    id: 'names',
    description: `servers dialled by service name (${SERVICE_NAMES.serverA}), answered by dnsmasq beside them; the caller's resolver as a pod's: search ${searchDomains().join(' ')}, ndots:${CLUSTER.ndots}`,
  },
  {
    id: 'mesh',
    description: `Envoy ${ENVOY.version} beside the caller (its connections redirected to it over loopback, plaintext) and beside the servers; mTLS between the two over pooled connections`,
  },
]);

/** A network profile with the path's features; `name` is how it is written (region+mesh+names). */
export interface PathProfile {
  name: string;
  network: NetworkProfile;
  features: PathFeatureId[];
}

export class PathProfileError extends Error {
  override name = 'PathProfileError';
}

/** Parses `region`, `region+names`, `region+mesh+names` (features in any order, each at most once). */
export function findPath(name: string): PathProfile {
  const [networkName, ...parts] = name.split('+');
  const network = findProfile(networkName);
  const features: PathFeatureId[] = [];
  for (const part of parts) {
    const feature = PATH_FEATURES.find((f) => f.id === part);
    if (!feature) throw new PathProfileError(`path profile "${name}": no path feature "${part}" (known: ${PATH_FEATURES.map((f) => f.id).join(', ')})`);
    if (features.includes(feature.id)) throw new PathProfileError(`path profile "${name}": "${part}" is given twice`);
    features.push(feature.id);
  }
  if (features.length > 0 && !usesStage(network)) {
    throw new PathProfileError(`path profile "${name}": ${features.join(' and ')} need the network stage's namespaces; use veth for a path with no added delay`);
  }
  // One spelling per path: features in PATH_FEATURES' order, so results key the same path the same way.
  const ordered = PATH_FEATURES.map((f) => f.id).filter((id) => features.includes(id));
  return { name: [network.name, ...ordered].join('+'), network, features: ordered };
}

/** Every path profile's name: each network profile alone, and each across a stage with every combination of features. */
export function pathNames(networks: readonly NetworkProfile[] = loadProfiles()): string[] {
  const subsets = PATH_FEATURES.reduce<PathFeatureId[][]>((all, f) => [...all, ...all.map((subset) => [...subset, f.id])], [[]]);
  return networks.flatMap((n) => (usesStage(n) ? subsets : [[]]).map((subset) => [n.name, ...subset].join('+')));
}

/** Why a path cannot be built here (what to install), or null; Envoy is fetched on first use. */
export function pathPrerequisites(profile: PathProfile): string | null {
  if (profile.features.includes('names')) return dnsmasqMissing();
  return null;
}

/** What a path adds to a cell: the DNS server's counts and the Envoys' counters. */
export interface PathCounters {
  dns: DnsCounts | null;
  envoy: { client: EnvoyCounters; server: EnvoyCounters } | null;
}

/** The path as built, for results.json beside the stage's record. */
export interface PathRecord {
  name: string;
  features: PathFeatureId[];
  names: { server: string; address: string; records: Record<string, string>; resolvConf: string; dialled: typeof SERVICE_NAMES } | null;
  mesh: { envoy: string; concurrency: number; routes: MeshRoute[]; pids: { client: number; server: number }; tls: string } | null;
}

export interface ActivePath {
  readonly profile: PathProfile;
  /** What the caller dials: server-a's base URL and server-b's host:port (names or the server's address). */
  readonly serverAUrl: string;
  readonly serverBAddress: string;
  counters(): Promise<PathCounters>;
  record(): PathRecord;
  /** Stops its DNS server and Envoys and removes its files (the stage's teardown also kills what runs in its namespaces). */
  stop(): void;
}

/** Builds the path's parts on a running stage whose servers listen on `ports`. */
export async function startPath(stage: Stage, profile: PathProfile, ports: { serverA: number; serverB: number }): Promise<ActivePath> {
  const serverAddress = stage.hosts.server;
  const names = profile.features.includes('names');
  const mesh = profile.features.includes('mesh');
  const t = stage.topology;
  let dns: DnsServer | null = null;
  let certs: CertificateSet | null = null;
  const envoys: EnvoyProcess[] = [];
  const records = { [serviceFqdn(SERVICE_NAMES.serverA)]: serverAddress, [serviceFqdn(SERVICE_NAMES.serverB)]: serverAddress };
  const stop = () => {
    dns?.stop();
    envoys.forEach((envoy) => void envoy.stop());
    if (certs) removeCertificates(certs);
    // Only our file: other parts of a stage may keep theirs there (hosts); the stage's teardown removes the folder.
    if (names) fs.rmSync(path.join(netnsEtcDir(t.namespaces.client), 'resolv.conf'), { force: true });
  };
  try {
    if (names) {
      dns = await startClusterDns(stage, dnsmasqArgv(records), SERVICE_NAMES.serverA);
    }
    const routes = meshRoutes(ports);
    if (mesh) {
      const binary = resolveEnvoy();
      certs = makeCertificates({ names: [serviceFqdn(SERVICE_NAMES.serverA), serviceFqdn(SERVICE_NAMES.serverB)], ips: [serverAddress] }, { parent: stage.workDir });
      const socket = (side: string) => path.join(stage.workDir, `envoy-${side}.admin`);
      envoys.push(await EnvoyProcess.start('server', binary, serverEnvoyConfig(routes, serverAddress, certs, socket('server')), stage.workDir, (argv) => stage.wrap('server', argv), ENVOY_CONCURRENCY));
      envoys.push(await EnvoyProcess.start('client', binary, clientEnvoyConfig(routes, serverAddress, certs, socket('client')), stage.workDir, (argv) => stage.wrap('client', argv), ENVOY_CONCURRENCY));
      for (const rule of captureRules(routes, serverAddress)) run({ argv: stage.wrap('client', rule), why: "redirect the caller's connections to its sidecar" });
    }
    const host = (name: string) => (names ? name : serverAddress);
    return {
      profile,
      serverAUrl: `http://${host(SERVICE_NAMES.serverA)}:${ports.serverA}`,
      serverBAddress: `${host(SERVICE_NAMES.serverB)}:${ports.serverB}`,
      counters: async () => ({
        dns: dns ? await dns.snapshot() : null,
        envoy: envoys.length ? { client: await envoys[1].counters(), server: await envoys[0].counters() } : null,
      }),
      record: () => ({
        name: profile.name,
        features: profile.features,
        names: names ? { server: 'dnsmasq (Debian dnsmasq-base)', address: DNS_ADDRESS, records, resolvConf: podResolvConf(), dialled: SERVICE_NAMES } : null,
        mesh: mesh
          ? { envoy: ENVOY.version, concurrency: ENVOY_CONCURRENCY, routes, pids: { client: envoys[1].pid, server: envoys[0].pid }, tls: 'mTLS between the Envoys (a throwaway CA made for this run); plaintext on each side’s loopback or LAN hop' }
          : null,
      }),
      stop,
    };
  } catch (error) {
    stop();
    throw error;
  }
}

/** Counters over one measured part (e.g. a cell): after − before. */
export function pathCountersBetween(before: PathCounters, after: PathCounters): PathCounters {
  const envoyBetween = (b: EnvoyCounters, a: EnvoyCounters): EnvoyCounters => ({
    requests: a.requests - b.requests,
    upstreamConnections: a.upstreamConnections - b.upstreamConnections,
    cpuMs: Math.round((a.cpuMs - b.cpuMs) * 1000) / 1000,
  });
  return {
    dns: before.dns && after.dns ? dnsCountsBetween(before.dns, after.dns) : null,
    envoy: before.envoy && after.envoy ? { client: envoyBetween(before.envoy.client, after.envoy.client), server: envoyBetween(before.envoy.server, after.envoy.server) } : null,
  };
}

/** a + b (null counts as nothing): a run's cells added up. */
export function addPathCounters(a: PathCounters, b: PathCounters): PathCounters {
  const addEnvoy = (x: EnvoyCounters, y: EnvoyCounters): EnvoyCounters => ({
    requests: x.requests + y.requests,
    upstreamConnections: x.upstreamConnections + y.upstreamConnections,
    cpuMs: Math.round((x.cpuMs + y.cpuMs) * 1000) / 1000,
  });
  const addDns = (x: DnsCounts, y: DnsCounts): DnsCounts => {
    const byType = { ...x.byType };
    for (const [type, n] of Object.entries(y.byType)) byType[type] = (byType[type] ?? 0) + n;
    return { queries: x.queries + y.queries, lookups: x.lookups + y.lookups, nxdomain: x.nxdomain + y.nxdomain, byType };
  };
  return {
    dns: a.dns && b.dns ? addDns(a.dns, b.dns) : (a.dns ?? b.dns),
    envoy: a.envoy && b.envoy ? { client: addEnvoy(a.envoy.client, b.envoy.client), server: addEnvoy(a.envoy.server, b.envoy.server) } : (a.envoy ?? b.envoy),
  };
}
