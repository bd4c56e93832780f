// Balancing strategies as data (issue #35): how a client in the stage's client namespace reaches the
// replicas, what the client and the servers are configured with, and which transports a strategy does
// not apply to, with why. The mechanisms they need are below: a virtual IP with kube-proxy's iptables
// rules, and a name that resolves to every replica (a headless Service's answer from a real DNS server).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DnsCounts } from '../../model';
import type { ServerIdentity } from '../../security';
import { CLUSTER, DNS_ADDRESS, dnsmasqArgv, podResolvConf, serviceFqdn, startClusterDns, type DnsServer } from '../path';
import { inNs, runStageCommand, type Stage, type Topology } from '../stage';

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
/** The headless Service's name as a pod in the client's namespace dials it (`<service>.<namespace>`). */
export const SERVICE_NAME = `replicas.${CLUSTER.serverNamespace}`;

/**
 * What the replicas' certificate (and the front proxy's) names under --security tls|mtls: everything a
 * client dials — the Service's virtual IP, the headless name and its FQDN, the front proxy's address —
 * and each replica's own address (the driver reads every replica's counters there; `replicaAddresses`
 * includes those that will join later).
 */
export function serviceIdentity(proxyAddress: string, replicaAddresses: readonly string[]): ServerIdentity {
  return { names: ['localhost', SERVICE_NAME, serviceFqdn(SERVICE_NAME)], ips: [SERVICE_VIP, proxyAddress, ...replicaAddresses] };
}

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
    runStageCommand({ argv: inNs(t.namespaces.client, ['iptables', '-w', '-t', 'nat', '-A', 'OUTPUT', '-j', SERVICES_CHAIN]), why: "send the client's connections to the virtual IP through the Service's rules" });
  }
}

/** The client namespace's nat rules, as iptables prints them (for the record and for tests). */
export function virtualIpRulesInForce(t: Topology): string {
  return runStageCommand(inNs(t.namespaces.client, ['iptables', '-w', '-t', 'nat', '-S']));
}

/**
 * The headless name: a cluster DNS (dnsmasq beside the servers, ../path/cluster-dns.ts) answers
 * SERVICE_NAME's fully qualified name with one A record per ready replica, from a hosts file it reads
 * again on SIGHUP when a replica joins or leaves; the client namespace's resolver is a pod's (search
 * domains, ndots:5), so a lookup of the short name tries the client's own namespace first (NXDOMAIN).
 * Every query it receives is counted from its log.
 */
export class HeadlessService {
  private constructor(
    private readonly dns: DnsServer,
    readonly hostsFile: string,
  ) {}

  static async start(stage: Pick<Stage, 'topology' | 'wrap' | 'workDir'>, addresses: readonly string[]): Promise<HeadlessService> {
    const hostsFile = path.join(stage.workDir, 'headless-service.hosts');
    fs.writeFileSync(hostsFile, headlessHosts(addresses));
    return new HeadlessService(await startClusterDns(stage, dnsmasqArgv({}, hostsFile), SERVICE_NAME), hostsFile);
  }

  get pid(): number {
    return this.dns.pid;
  }

  /** The ready replicas now: the file replaced by a rename, then dnsmasq reads it again (resolves once it has). */
  setEndpoints(addresses: readonly string[]): Promise<void> {
    fs.writeFileSync(`${this.hostsFile}.new`, headlessHosts(addresses));
    fs.renameSync(`${this.hostsFile}.new`, this.hostsFile);
    return this.dns.reload(this.hostsFile);
  }

  /** Queries received so far (subtract two readings for a cell). */
  queries(): Promise<DnsCounts> {
    return this.dns.snapshot();
  }

  record(): object {
    return { name: SERVICE_NAME, answers: serviceFqdn(SERVICE_NAME), server: 'dnsmasq (Debian dnsmasq-base), its hosts file read again on SIGHUP', address: DNS_ADDRESS, resolvConf: podResolvConf() };
  }

  stop(): void {
    this.dns.stop();
  }
}

/** The hosts file dnsmasq serves the headless name from: one line (one A record) per replica. */
export function headlessHosts(addresses: readonly string[]): string {
  return addresses.map((address) => `${address} ${serviceFqdn(SERVICE_NAME)}\n`).join('');
}
