// The path services really take (issue #34): on top of a network profile's stage, service names
// resolved by a real DNS server and/or a sidecar mesh (Envoy beside the client and the servers).
// A path profile is `<network profile>+<feature>+…` (region+names, region+mesh+names); each feature is
// a record below, and every suite and bench:all take path profiles wherever they take a network profile.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeCertificates, removeCertificates, type CertificateSet } from '../../security';
import type { DnsCounts, EnvoyCounters, PathCounters } from '../../model';
import { findProfile, loadProfiles, runStageCommand, tryStageCommand, usesStage, type NetworkProfile, type Stage } from '../stage';
import { CLUSTER, DNS_ADDRESS, dnsmasqArgv, dnsmasqMissing, netnsEtcDir, podResolvConf, searchDomains, SERVICE_NAMES, serviceFqdn, startClusterDns } from './cluster-dns';
import { ENVOY, resolveEnvoy } from './envoy-binary';
import { EnvoyProcess } from './envoy-process';
import { captureRules, clientEnvoyConfig, ENVOY_CONCURRENCY, ENVOY_HTTP2_WINDOWS, meshRoutes, serverEnvoyConfig, type MeshPorts, type MeshRoute } from './sidecars';

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

export type { PathCounters };

/** The path as built, for results.json beside the stage's record. */
export interface PathRecord {
  name: string;
  features: PathFeatureId[];
  names: { server: string; address: string; records: Record<string, string>; resolvConf: string; dialled: typeof SERVICE_NAMES } | null;
  mesh: { envoy: string; concurrency: number; routes: MeshRoute[]; pids: { client: number; server: number }; tls: string; http2: typeof ENVOY_HTTP2_WINDOWS } | null;
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

/** The stage-wide part of a path: the DNS server and the caller's resolver (one per stage, whatever runs on it). */
export interface NamesPart {
  records: Record<string, string>;
  /** Its counts now; `settleMs` for its log to be read (per call, a few ms do: the lines are in the pipe before the answer). */
  counts(settleMs?: number): Promise<DnsCounts>;
  stop(): void;
}

/** A set of servers' part of a path: the two sidecars for their ports and the capture of the caller's connections to them. */
export interface MeshPart {
  routes: MeshRoute[];
  pids: { client: number; server: number };
  counters(): Promise<{ client: EnvoyCounters; server: EnvoyCounters }>;
  stop(): void;
}

/** The server's address, or the service names with names: what a caller dials. */
export function dialledHosts(stage: Stage, profile: PathProfile): { serverA: string; serverB: string } {
  const names = profile.features.includes('names');
  return { serverA: names ? SERVICE_NAMES.serverA : stage.hosts.server, serverB: names ? SERVICE_NAMES.serverB : stage.hosts.server };
}

/** Starts dnsmasq beside the servers and gives the client namespace a pod's resolver; null when the path has no names. */
export async function startNames(stage: Stage, profile: PathProfile): Promise<NamesPart | null> {
  if (!profile.features.includes('names')) return null;
  const t = stage.topology;
  const serverAddress = stage.hosts.server;
  const records = { [serviceFqdn(SERVICE_NAMES.serverA)]: serverAddress, [serviceFqdn(SERVICE_NAMES.serverB)]: serverAddress };
  // Only our file: other parts of a stage may keep theirs there (hosts); the stage's teardown removes the folder.
  const removeResolvConf = () => fs.rmSync(path.join(netnsEtcDir(t.namespaces.client), 'resolv.conf'), { force: true });
  try {
    const dns = await startClusterDns(stage, dnsmasqArgv(records), SERVICE_NAMES.serverA);
    return {
      records,
      counts: (settleMs) => dns.snapshot(settleMs),
      stop: () => {
        dns.stop();
        removeResolvConf();
      },
    };
  } catch (error) {
    removeResolvConf();
    throw error;
  }
}

/**
 * Starts an Envoy beside the caller and one beside the servers for the servers' `ports`, with a CA of
 * their own, and redirects the caller's connections to those ports to its Envoy. `slot` keeps the
 * Envoys of sets of servers up at once apart (their listeners, files and capture rules).
 */
export async function startMesh(stage: Stage, ports: MeshPorts, slot = 0): Promise<MeshPart> {
  const serverAddress = stage.hosts.server;
  const routes = meshRoutes(ports, slot);
  const workDir = slot === 0 ? stage.workDir : path.join(stage.workDir, `mesh-${slot}`);
  fs.mkdirSync(workDir, { recursive: true });
  const envoys: EnvoyProcess[] = [];
  const rules: string[][] = [];
  let certs: CertificateSet | null = null;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    envoys.forEach((envoy) => void envoy.stop());
    // The same rules, deleted: a later set's ports may be these.
    for (const rule of rules) tryStageCommand({ argv: stage.wrap('client', rule.map((word) => (word === '-A' ? '-D' : word))), why: 'remove the capture of a stopped set' });
    if (certs) removeCertificates(certs);
    if (workDir !== stage.workDir) fs.rmSync(workDir, { recursive: true, force: true });
  };
  try {
    const binary = resolveEnvoy();
    certs = makeCertificates({ names: [serviceFqdn(SERVICE_NAMES.serverA), serviceFqdn(SERVICE_NAMES.serverB)], ips: [serverAddress] }, { parent: workDir });
    const socket = (side: string) => path.join(workDir, `envoy-${side}.admin`);
    envoys.push(await EnvoyProcess.start('server', binary, serverEnvoyConfig(routes, serverAddress, certs, socket('server')), workDir, (argv) => stage.wrap('server', argv), ENVOY_CONCURRENCY));
    envoys.push(await EnvoyProcess.start('client', binary, clientEnvoyConfig(routes, serverAddress, certs, socket('client')), workDir, (argv) => stage.wrap('client', argv), ENVOY_CONCURRENCY));
    for (const rule of captureRules(routes, serverAddress)) {
      runStageCommand({ argv: stage.wrap('client', rule), why: "redirect the caller's connections to its sidecar" });
      rules.push(rule);
    }
    const [server, client] = envoys;
    return { routes, pids: { client: client.pid, server: server.pid }, counters: async () => ({ client: await client.counters(), server: await server.counters() }), stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/**
 * The path a caller takes to servers on `ports`: the stage's names (shared: not stopped with it) and
 * the servers' mesh (stopped with it), as one ActivePath.
 */
export function joinPath(stage: Stage, profile: PathProfile, ports: MeshPorts, names: NamesPart | null, mesh: MeshPart | null): ActivePath {
  const hosts = dialledHosts(stage, profile);
  return {
    profile,
    serverAUrl: `http://${hosts.serverA}:${ports.serverA}`,
    serverBAddress: `${hosts.serverB}:${ports.serverB}`,
    counters: async () => ({ dns: names ? await names.counts() : null, envoy: mesh ? await mesh.counters() : null }),
    record: () => ({
      name: profile.name,
      features: profile.features,
      names: names ? { server: 'dnsmasq (Debian dnsmasq-base)', address: DNS_ADDRESS, records: names.records, resolvConf: podResolvConf(), dialled: SERVICE_NAMES } : null,
      mesh: mesh
        ? { envoy: ENVOY.version, concurrency: ENVOY_CONCURRENCY, routes: mesh.routes, pids: mesh.pids, tls: 'mTLS between the Envoys (a throwaway CA made for this run); plaintext on each side’s loopback or LAN hop', http2: ENVOY_HTTP2_WINDOWS }
        : null,
    }),
    stop: () => mesh?.stop(),
  };
}

/** Builds the path's parts on a running stage whose servers listen on `ports` (names and mesh, stopped together). */
export async function startPath(stage: Stage, profile: PathProfile, ports: MeshPorts): Promise<ActivePath> {
  const names = await startNames(stage, profile);
  try {
    const mesh = profile.features.includes('mesh') ? await startMesh(stage, ports) : null;
    const joined = joinPath(stage, profile, ports, names, mesh);
    return {
      ...joined,
      stop: () => {
        names?.stop();
        joined.stop();
      },
    };
  } catch (error) {
    names?.stop();
    throw error;
  }
}
