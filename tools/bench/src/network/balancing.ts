// Balancing strategies as data (issue #35): how a client in the stage's client namespace reaches the
// replicas, what the client and the servers are configured with, and which transports a strategy does
// not apply to, with why. The mechanisms they need are below: a virtual IP with kube-proxy's iptables
// rules, and a name that resolves to every replica (a headless Service's DNS answer).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { inNs } from './commands';
import { NETNS_ETC } from './run-extras';
import { run } from './shell';
import type { Topology } from './topology';

/** The transports load is offered on behind a Service. */
export type ServiceTransport = 'http-json' | 'grpc';
export const SERVICE_TRANSPORTS: readonly ServiceTransport[] = Object.freeze(['http-json', 'grpc']);

export type StrategyName = 'l4' | 'dns-round-robin' | 'max-connection-age' | 'l7-proxy';

export interface BalancingStrategy {
  name: StrategyName;
  description: string;
  /** What a Kubernetes user configures to get it. */
  kubernetes: string;
  /** Where the client sends its calls: the Service's virtual IP, a name with every replica's address, or a proxy. */
  address: 'virtual-ip' | 'dns-name' | 'proxy';
  /** grpc-js's load-balancing policy on the client's channel (service config). */
  grpcPolicy: 'pick_first' | 'round_robin';
  /** How the HTTP client spreads its keep-alive connections: all to one address, or each new one to the next address. */
  httpConnections: 'one-address' | 'round-robin';
  /** Servers close a connection this long after it opened (gRPC: GOAWAY after grpc.max_connection_age_ms; HTTP/1.1: `Connection: close` on the next reply); null: never. */
  maxConnectionAgeMs: number | null;
  /** Transports it does not apply to, and why (said in the report). */
  notFor: Partial<Record<ServiceTransport, string>>;
}

export const BALANCING_STRATEGIES: readonly BalancingStrategy[] = Object.freeze([
  {
    name: 'l4',
    description: "a ClusterIP Service: one virtual IP, kube-proxy's iptables rules pick a replica at random per new connection (DNAT, -m statistic --mode random)",
    kubernetes: 'type: ClusterIP (the default Service), kube-proxy in iptables mode',
    address: 'virtual-ip',
    grpcPolicy: 'pick_first',
    httpConnections: 'one-address',
    maxConnectionAgeMs: null,
    notFor: {},
  },
  {
    name: 'dns-round-robin',
    description: "a headless Service: the name resolves to every replica; grpc-js's round_robin policy keeps a connection to each and spreads calls, the HTTP client spreads its connections",
    kubernetes: 'clusterIP: None, and the client resolving the name (gRPC: dns:/// target with round_robin)',
    address: 'dns-name',
    grpcPolicy: 'round_robin',
    httpConnections: 'round-robin',
    maxConnectionAgeMs: null,
    notFor: {},
  },
  {
    name: 'max-connection-age',
    description: 'the ClusterIP Service, with servers that close every connection after a maximum age, so clients reconnect and the DNAT picks again',
    kubernetes: "type: ClusterIP, and the servers' grpc.max_connection_age_ms (HTTP: a maximum connection duration)",
    address: 'virtual-ip',
    grpcPolicy: 'pick_first',
    httpConnections: 'one-address',
    maxConnectionAgeMs: 1000,
    notFor: {},
  },
  {
    name: 'l7-proxy',
    description: 'Envoy in front of the replicas, balancing each HTTP request and each gRPC call (round robin)',
    kubernetes: 'a service mesh sidecar or an Envoy/ingress in front of the Service',
    address: 'proxy',
    grpcPolicy: 'pick_first',
    httpConnections: 'one-address',
    maxConnectionAgeMs: null,
    notFor: {},
  },
] satisfies BalancingStrategy[]);

export function findStrategy(name: string): BalancingStrategy {
  const strategy = BALANCING_STRATEGIES.find((s) => s.name === name);
  if (!strategy) throw new Error(`unknown balancing strategy "${name}" (known: ${BALANCING_STRATEGIES.map((s) => s.name).join(', ')})`);
  return strategy;
}

/** The Service's virtual IP: outside every link of the stage, so only the DNAT rules make it reachable. */
export const SERVICE_VIP = '198.18.5.1';
/** The headless name; resolved from the client namespace's own hosts file. */
export const SERVICE_NAME = 'replicas.service.nbx';

const SERVICES_CHAIN = 'NBX-SERVICES';
const chainFor = (port: number) => `NBX-SVC-${port}`;

/**
 * kube-proxy's rules for `ports` on the virtual IP over `addresses`, as an iptables-restore payload
 * for the nat table: the i-th of n endpoints is taken with probability 1/(n − i), so each is equally
 * likely; the choice is made once per connection (conntrack keeps it), which is why one long-lived
 * HTTP/2 connection stays on one replica.
 */
export function virtualIpRules(ports: readonly number[], addresses: readonly string[]): string {
  const lines = ['*nat', `:${SERVICES_CHAIN} - [0:0]`, ...ports.map((port) => `:${chainFor(port)} - [0:0]`)];
  for (const port of ports) {
    lines.push(`-A ${SERVICES_CHAIN} -d ${SERVICE_VIP}/32 -p tcp -m tcp --dport ${port} -j ${chainFor(port)}`);
    addresses.forEach((address, i) => {
      const left = addresses.length - i;
      const pick = left > 1 ? `-m statistic --mode random --probability ${(1 / left).toFixed(10)} ` : '';
      lines.push(`-A ${chainFor(port)} -p tcp -m tcp ${pick}-j DNAT --to-destination ${address}:${port}`);
    });
  }
  lines.push('COMMIT', '');
  return lines.join('\n');
}

/**
 * Installs or replaces the virtual IP's rules in the client namespace, atomically (iptables-restore
 * with --noflush flushes and refills only the chains it names, in one transaction, as kube-proxy does).
 */
export function applyVirtualIp(t: Topology, ports: readonly number[], addresses: readonly string[]): void {
  const argv = inNs(t.namespaces.client, ['iptables-restore', '-w', '--noflush']);
  const result = spawnSync(argv[0], argv.slice(1), { input: virtualIpRules(ports, addresses), encoding: 'utf8', timeout: 15_000 });
  if (result.status !== 0) throw new Error(`virtual IP rules: \`${argv.join(' ')}\` failed: ${(result.stderr || result.error?.message || '').trim()}`);
  const jump = ['iptables', '-w', '-t', 'nat', '-C', 'OUTPUT', '-j', SERVICES_CHAIN];
  if (spawnSync('ip', ['netns', 'exec', t.namespaces.client, ...jump]).status !== 0) {
    run({ argv: inNs(t.namespaces.client, ['iptables', '-w', '-t', 'nat', '-A', 'OUTPUT', '-j', SERVICES_CHAIN]), why: "send the client's connections to the virtual IP through the Service's rules" });
  }
}

/** The client namespace's nat rules, as iptables prints them (for the record and for tests). */
export function virtualIpRulesInForce(t: Topology): string {
  return run(inNs(t.namespaces.client, ['iptables', '-w', '-t', 'nat', '-S']));
}

/**
 * The headless name: every replica's address under SERVICE_NAME in the client namespace's own hosts
 * file (/etc/netns/<ns>/hosts, which `ip netns exec` mounts over /etc/hosts for what it starts).
 * Rewritten in place, not replaced, so a process already running sees the change (the mount holds the
 * file, not the name).
 */
export function writeHeadlessName(t: Topology, addresses: readonly string[]): string {
  const dir = path.join(NETNS_ETC, t.namespaces.client);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'hosts');
  fs.writeFileSync(file, ['127.0.0.1 localhost', ...addresses.map((address) => `${address} ${SERVICE_NAME}`), ''].join('\n'));
  return file;
}
