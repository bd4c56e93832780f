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

/** The transports load is offered on behind a Service: the blog's two, and Nest's microservice transports. */
export type ServiceTransport = 'http-json' | 'grpc' | 'nest-tcp' | BrokeredTransport;
/** The Nest transports that go through a broker: the broker, not a Service, decides which replica gets a request. */
export type BrokeredTransport = 'nest-redis' | 'nest-nats' | 'nest-rmq' | 'nest-mqtt' | 'nest-kafka';
/** What bench:service offers load on unless told otherwise (--transports). */
export const SERVICE_TRANSPORTS: readonly ServiceTransport[] = Object.freeze(['http-json', 'grpc']);
export const BROKERED_TRANSPORTS: readonly BrokeredTransport[] = Object.freeze(['nest-redis', 'nest-nats', 'nest-rmq', 'nest-mqtt', 'nest-kafka']);
/** Every transport bench:service can offer load on, in the registry's order. */
export const ALL_SERVICE_TRANSPORTS: readonly ServiceTransport[] = Object.freeze(['http-json', 'grpc', 'nest-tcp', ...BROKERED_TRANSPORTS]);

export const isBrokered = (transport: ServiceTransport): transport is BrokeredTransport => (BROKERED_TRANSPORTS as readonly string[]).includes(transport);

/** How a broker shares one service's requests among the replicas subscribed to it: its own mechanism, as configured behind the `broker` strategy. */
export interface BrokerSharing {
  /** What the replicas subscribe with, in the broker's own words. */
  mechanism: string;
  /** true: each request goes to one replica; false: every replica receives (and answers) every request, the caller keeps the first reply. */
  spreads: boolean;
  /** How the replicas are configured for it (MICROSERVICE_GROUP, KAFKA_TOPIC_PARTITIONS: libs/config), or what Nest does by itself. */
  configured: string;
}

/** The `broker` strategy's mechanism per brokered transport (the replicas' group is SERVICE_GROUP). */
export const BROKER_SHARING: Readonly<Record<BrokeredTransport, BrokerSharing>> = Object.freeze({
  'nest-redis': { mechanism: 'Redis pub/sub: every subscriber of a channel receives every message; Redis has no group for pub/sub', spreads: false, configured: "Nest's Redis transport as it is: every replica receives and answers every request, the caller keeps the first reply and drops the others" },
  'nest-nats': { mechanism: 'NATS queue group: the server gives each request to one member of the group, at random', spreads: true, configured: "Nest's NATS server's `queue` option (MICROSERVICE_GROUP); Nest's default has none, and then every replica answers every request" },
  'nest-rmq': { mechanism: "RabbitMQ competing consumers: one queue, each message to the next consumer (round robin; Nest's prefetch 0, no-ack)", spreads: true, configured: "none needed: every replica consumes the set's one queue (Nest's default)" },
  'nest-mqtt': { mechanism: 'MQTT shared subscription: `$share/<group>/<topic>`, each message to one subscriber of the group', spreads: true, configured: "the request topic subscribed as `$share/<group>/…` (MICROSERVICE_GROUP; Nest's MQTT server matches such handlers); Nest's default subscribes plainly, and then every replica answers every request" },
  'nest-kafka': { mechanism: "Kafka consumer group: the request topic's partitions split among the group's members; the producer spreads keyless messages over the partitions", spreads: true, configured: "Nest's one consumer group per service (its default), the topics created with as many partitions as replicas (KAFKA_TOPIC_PARTITIONS): at the broker's default of 1, one replica gets every request" },
});

/** The group the replicas share behind the `broker` strategy (MICROSERVICE_GROUP). */
export const SERVICE_GROUP = 'replicas';

export type StrategyName = 'l4' | 'dns-round-robin' | 'max-connection-age' | 'l7-proxy' | 'broker';

export interface BalancingStrategy {
  name: StrategyName;
  description: string;
  /** What a Kubernetes user configures to get it. */
  kubernetes: string;
  /** Where the client sends its calls: the Service's virtual IP, a name with every replica's address, a proxy, or the broker every replica subscribes to. */
  address: 'virtual-ip' | 'dns-name' | 'proxy' | 'broker';
  /** grpc-js's load-balancing policy on the client's channel (service config). */
  grpcPolicy: 'pick_first' | 'round_robin';
  /** How the HTTP client spreads its keep-alive connections: all to one address, or each new one to the next address. */
  httpConnections: 'one-address' | 'round-robin';
  /** Servers close a connection this long after it opened (gRPC: GOAWAY after grpc.max_connection_age_ms; HTTP/1.1: `Connection: close` on the next reply); null: never. */
  maxConnectionAgeMs: number | null;
  /** Transports it does not apply to, and why (said in the report). */
  notFor: Partial<Record<ServiceTransport, string>>;
}

/** A brokered transport reaches no Service: its calls go to the broker, which picks the replica. */
const THROUGH_A_BROKER = 'goes through a broker, which distributes the calls itself (strategy broker)';
const brokeredNotFor = (why: string) => Object.fromEntries(BROKERED_TRANSPORTS.map((t) => [t, why])) as Partial<Record<ServiceTransport, string>>;

export const BALANCING_STRATEGIES: readonly BalancingStrategy[] = Object.freeze([
  {
    name: 'l4',
    description: "a ClusterIP Service: one virtual IP, kube-proxy's iptables rules pick a replica at random per new connection (DNAT, -m statistic --mode random)",
    kubernetes: 'type: ClusterIP (the default Service), kube-proxy in iptables mode',
    address: 'virtual-ip',
    grpcPolicy: 'pick_first',
    httpConnections: 'one-address',
    maxConnectionAgeMs: null,
    notFor: brokeredNotFor(THROUGH_A_BROKER),
  },
  {
    name: 'dns-round-robin',
    description: "a headless Service: the name resolves to every replica; grpc-js's round_robin policy keeps a connection to each and spreads calls, the HTTP client spreads its connections",
    kubernetes: 'clusterIP: None, and the client resolving the name (gRPC: dns:/// target with round_robin)',
    address: 'dns-name',
    grpcPolicy: 'round_robin',
    httpConnections: 'round-robin',
    maxConnectionAgeMs: null,
    notFor: brokeredNotFor(THROUGH_A_BROKER),
  },
  {
    name: 'max-connection-age',
    description: 'the ClusterIP Service, with servers that close every connection after a maximum age, so clients reconnect and the DNAT picks again',
    kubernetes: "type: ClusterIP, and the servers' grpc.max_connection_age_ms (HTTP: a maximum connection duration)",
    address: 'virtual-ip',
    grpcPolicy: 'pick_first',
    httpConnections: 'one-address',
    maxConnectionAgeMs: 1000,
    notFor: { ...brokeredNotFor(THROUGH_A_BROKER), 'nest-tcp': "Nest's TCP server has no maximum connection age" },
  },
  {
    name: 'l7-proxy',
    description: 'Envoy in front of the replicas, balancing each HTTP request and each gRPC call (round robin)',
    kubernetes: 'a service mesh sidecar or an Envoy/ingress in front of the Service',
    address: 'proxy',
    grpcPolicy: 'pick_first',
    httpConnections: 'one-address',
    maxConnectionAgeMs: null,
    notFor: { ...brokeredNotFor(THROUGH_A_BROKER), 'nest-tcp': "the front proxy routes HTTP requests and gRPC calls; Nest's TCP framing would need a connection-level proxy (not built)" },
  },
  {
    name: 'broker',
    description: 'no Service: every replica subscribes to one broker, which spreads the requests by its own mechanism (NATS queue group, RabbitMQ competing consumers, Kafka consumer group, MQTT shared subscription; Redis pub/sub gives every request to every replica)',
    kubernetes: 'the broker reached as a Service of its own; the replicas a Deployment whose pods all subscribe (no Service in front of them)',
    address: 'broker',
    grpcPolicy: 'pick_first',
    httpConnections: 'one-address',
    maxConnectionAgeMs: null,
    notFor: { 'http-json': 'has no broker: a connection straight to a replica', grpc: 'has no broker: a connection straight to a replica', 'nest-tcp': 'has no broker: Nest TCP opens a connection straight to a replica, as gRPC does' },
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
    private dns: DnsServer,
    readonly hostsFile: string,
    private readonly stage: Pick<Stage, 'topology' | 'wrap' | 'workDir'>,
  ) {}

  static async start(stage: Pick<Stage, 'topology' | 'wrap' | 'workDir'>, addresses: readonly string[]): Promise<HeadlessService> {
    const hostsFile = path.join(stage.workDir, 'headless-service.hosts');
    fs.writeFileSync(hostsFile, headlessHosts(addresses));
    return new HeadlessService(await startClusterDns(stage, dnsmasqArgv({}, hostsFile), SERVICE_NAME), hostsFile, stage);
  }

  /** After stop() (a DNS outage): waits for the old process to be gone, then starts dnsmasq again on the same hosts file; its query counts start again from 0. */
  async restart(): Promise<void> {
    const old = this.dns.pid;
    for (let i = 0; i < 50 && alive(old); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    this.dns = await startClusterDns(this.stage, dnsmasqArgv({}, this.hostsFile), SERVICE_NAME, true);
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

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The hosts file dnsmasq serves the headless name from: one line (one A record) per replica. */
export function headlessHosts(addresses: readonly string[]): string {
  return addresses.map((address) => `${address} ${serviceFqdn(SERVICE_NAME)}\n`).join('');
}
