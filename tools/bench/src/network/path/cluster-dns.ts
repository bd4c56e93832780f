// Service names as a Kubernetes pod resolves them: a real DNS server (dnsmasq) in the stage's server
// namespace answers for cluster.local, and the client namespace gets a pod's resolver configuration
// (search domains, ndots:5), so one lookup costs the queries and round trips it costs in a cluster.
//
// Why dnsmasq: one Debian package (dnsmasq-base) with no service to disable, everything on its command
// line (no config file to write), authoritative answers for a local domain (--local, --host-record),
// and a log line per query (--log-queries) that we count per cell. unbound needs a config file and is a
// recursive resolver first; CoreDNS is not packaged by Debian (a Go binary to fetch and pin).
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { emptyDnsCounts, type DnsCounts } from '../../model';
import { hasCommand, runStageCommand, runToEnd, type Stage } from '../stage';

/** The cluster the names belong to, as data: the client's and the servers' Kubernetes namespaces. */
export const CLUSTER = Object.freeze({
  domain: 'cluster.local',
  clientNamespace: 'client',
  serverNamespace: 'servers',
  /** Kubernetes' default for pods (dnsPolicy ClusterFirst). */
  ndots: 5,
});

/** What a caller dials: `<service>.<namespace>`, as a pod in another namespace would. */
export const SERVICE_NAMES = Object.freeze({ serverA: `server-a.${CLUSTER.serverNamespace}`, serverB: `server-b.${CLUSTER.serverNamespace}` });

/** The address the DNS server listens on, beside the servers (a kube-dns ClusterIP stands for it). */
export const DNS_ADDRESS = '198.18.2.53';

export const DNSMASQ_INSTALL = 'apt-get install -y dnsmasq-base';

/** A pod's search list: its own namespace's services first, then every namespace's, then the cluster. */
export function searchDomains(): string[] {
  return [`${CLUSTER.clientNamespace}.svc.${CLUSTER.domain}`, `svc.${CLUSTER.domain}`, CLUSTER.domain];
}

/** The fully qualified name a service name resolves to. */
export function serviceFqdn(name: string): string {
  return `${name}.svc.${CLUSTER.domain}`;
}

/** /etc/resolv.conf as kubelet writes it for a pod with dnsPolicy ClusterFirst. */
export function podResolvConf(nameserver = DNS_ADDRESS): string {
  return `nameserver ${nameserver}\nsearch ${searchDomains().join(' ')}\noptions ndots:${CLUSTER.ndots}\n`;
}

/**
 * The queries one lookup of `name` makes and the round trips they take, with glibc's getaddrinfo (A
 * and AAAA sent together: one round trip per candidate) under ndots: a name with fewer dots than ndots
 * tries each search domain before itself, and stops at the first that answers.
 */
export function lookupCost(name: string, answeredBy: string): { queries: number; roundTrips: number } {
  const dots = name.split('.').length - 1;
  const candidates = dots >= CLUSTER.ndots ? [name, ...searchDomains().map((d) => `${name}.${d}`)] : [...searchDomains().map((d) => `${name}.${d}`), name];
  const tried = candidates.indexOf(answeredBy) + 1;
  if (tried === 0) throw new Error(`${answeredBy} is not a candidate of ${name}`);
  return { queries: 2 * tried, roundTrips: tried };
}

/** /etc/netns/<ns>/: `ip netns exec` bind-mounts the files in it over /etc (resolv.conf here). */
export function netnsEtcDir(namespace: string): string {
  return path.join('/etc/netns', namespace);
}

export function writePodResolvConf(namespace: string): string {
  const dir = netnsEtcDir(namespace);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'resolv.conf');
  fs.writeFileSync(file, podResolvConf());
  return file;
}

/** Why names cannot be served here (what to install), or null. */
export function dnsmasqMissing(): string | null {
  return hasCommand('dnsmasq') ? null : `--names runs a DNS server (dnsmasq) in the stage, which is not installed: install it with \`${DNSMASQ_INSTALL}\``;
}

/**
 * dnsmasq's command line: `records` as fixed host records, and with `addnHosts` a hosts file whose
 * names it serves too and reads again on SIGHUP (endpoints that change under load).
 */
export function dnsmasqArgv(records: Readonly<Record<string, string>>, addnHosts?: string): string[] {
  return [
    'dnsmasq',
    '--keep-in-foreground',
    '--conf-file=/dev/null',
    '--no-resolv',
    '--no-hosts',
    '--no-poll',
    '--pid-file=',
    `--listen-address=${DNS_ADDRESS}`,
    '--bind-interfaces',
    // Every name it holds no record for is NXDOMAIN at once (a cluster's DNS would ask upstream).
    '--address=/#/',
    `--local=/${CLUSTER.domain}/`,
    ...Object.entries(records).map(([name, address]) => `--host-record=${name},${address}`),
    // It reads the file again as root only: it drops to nobody after starting, who may not enter the
    // stage's work folder (0700).
    ...(addnHosts ? [`--addn-hosts=${addnHosts}`, '--user=root'] : []),
    '--log-queries',
    '--log-facility=-',
  ];
}

/** Adds one dnsmasq log line to the counts (pure: tested on real lines). */
export function countLogLine(counts: DnsCounts, line: string): void {
  const query = /query\[(\w+)\] (\S+) from /.exec(line);
  if (query) {
    counts.queries++;
    counts.byType[query[1]] = (counts.byType[query[1]] ?? 0) + 1;
    if (query[1] === 'A' && query[2].endsWith(`.${searchDomains()[0]}`)) counts.lookups++;
    return;
  }
  if (/ is NXDOMAIN$/.test(line)) counts.nxdomain++;
}

/** dnsmasq running in the server namespace; its log, read as it comes, is the query count. */
export class DnsServer {
  readonly counts = emptyDnsCounts();
  private log = '';
  private readonly waiting: { match: (line: string) => boolean; done: () => void }[] = [];

  private constructor(private readonly child: ChildProcess) {
    readline.createInterface({ input: child.stderr! }).on('line', (line) => {
      this.log = (this.log + line + '\n').slice(-2000);
      countLogLine(this.counts, line);
      for (const waiter of this.waiting.filter((w) => w.match(line))) {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        waiter.done();
      }
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Starts dnsmasq (argv wrapped into the server namespace) and waits until it answers. */
  static async start(wrapped: readonly string[], probe: () => Promise<void>): Promise<DnsServer> {
    const [program, ...args] = wrapped;
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const server = new DnsServer(child);
    const exited = new Promise<never>((_, reject) => child.once('exit', (code, signal) => reject(new Error(`dnsmasq exited (${signal ?? `code ${code}`}): ${server.log.trim()}`))));
    exited.catch(() => undefined);
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await Promise.race([probe(), exited]);
        return server;
      } catch (error) {
        if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
          child.kill('SIGKILL');
          throw new Error(`the DNS server did not answer: ${(error as Error).message}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /**
   * The counts once every log line written so far has been read (dnsmasq logs a query before answering
   * it, so after a call its lines are already in the pipe: `settleMs` gives the reading side time).
   */
  async snapshot(settleMs = 50): Promise<DnsCounts> {
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    return structuredClone(this.counts);
  }

  /** Has it read its hosts file `file` again (SIGHUP), and resolves once its log says it did. */
  reload(file: string, timeoutMs = 5000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`dnsmasq did not read ${file} again within ${timeoutMs} ms: ${this.log.trim().split('\n').slice(-3).join(' | ')}`)), timeoutMs);
      this.waiting.push({ match: (line) => line.includes(`read ${file} - `), done: () => (clearTimeout(timer), resolve()) });
      this.child.kill('SIGHUP');
    });
  }

  stop(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
  }
}

/**
 * The cluster's DNS on a stage: DNS_ADDRESS added beside the servers, dnsmasq there (argv from
 * dnsmasqArgv), the client namespace's resolver a pod's; ready once the client resolves `probeName`.
 * Its process goes with the server namespace and the resolv.conf with the stage's /etc/netns folders.
 */
export function startClusterDns(stage: Pick<Stage, 'topology' | 'wrap'>, argv: readonly string[], probeName: string, again = false): Promise<DnsServer> {
  const missing = dnsmasqMissing();
  if (missing) throw new Error(missing);
  const t = stage.topology;
  // Started again after it was stopped (bench:service's dns-outage): its address and the resolver are in place already.
  if (!again) {
    runStageCommand(['ip', '-n', t.namespaces.server, 'addr', 'add', `${DNS_ADDRESS}/${t.prefixLength}`, 'dev', t.interfaces.server]);
    writePodResolvConf(t.namespaces.client);
  }
  const probe = async () => void (await runToEnd(stage.wrap('client', ['getent', 'ahostsv4', probeName]), 5000));
  return DnsServer.start(stage.wrap('server', argv), probe);
}
