// Replicas behind the stage's server side (issue #35): each replica is a namespace of its own with an
// address of its own on a replica LAN — a bridge in the server namespace, as a node's pod bridge — and
// an optional CPU cgroup. The server namespace routes between the router and that LAN, so what the
// delayer and the rate limit do to the server side applies to every replica alike.
import { createCpuCgroup, cpuHierarchy, inCgroup, inNs, NAMESPACE_PREFIX, readThrottling, removeCgroup, runStageCommand, type Command, type CpuCgroup, type CpuThrottling, type TcpSettings, type Topology } from '../stage';

/** The replica LAN: 198.18.4.0/24 (RFC 2544's range, as the stage's links), its gateway on the server namespace's bridge. */
export const REPLICA_LAN = { prefix: '198.18.4', gateway: '198.18.4.1', bridge: 'br-r', prefixLength: 24, firstHost: 11 } as const;
/** At most this many replicas at once (addresses .11 … .110). */
export const MAX_REPLICAS = 100;

export interface Replica {
  /** 1-based, never reused within a stage (a replica added after one was removed gets the next). */
  index: number;
  name: string;
  namespace: string;
  address: string;
  cgroup: CpuCgroup | null;
}

export interface ReplicaRecord {
  name: string;
  namespace: string;
  address: string;
  cpuLimit: { millicores: number; cgroup: string; version: string; setting: string } | null;
}

export const replicaNamespace = (t: Topology, index: number) => `${NAMESPACE_PREFIX}${t.runId}-r${index}`;
export const replicaAddress = (index: number) => `${REPLICA_LAN.prefix}.${REPLICA_LAN.firstHost + index - 1}`;

/** The LAN once per stage: a bridge in the server namespace with the gateway address, forwarding on, and the router's route to it. */
export function replicaLanCommands(t: Topology): Command[] {
  const { server, router } = t.namespaces;
  const why = 'build the replica LAN (a bridge in the server namespace)';
  return [
    { argv: ['ip', '-n', server, 'link', 'add', REPLICA_LAN.bridge, 'type', 'bridge'], why },
    { argv: ['ip', '-n', server, 'addr', 'add', `${REPLICA_LAN.gateway}/${REPLICA_LAN.prefixLength}`, 'dev', REPLICA_LAN.bridge], why },
    { argv: ['ip', '-n', server, 'link', 'set', REPLICA_LAN.bridge, 'up'], why },
    { argv: inNs(server, ['sysctl', '-qw', 'net.ipv4.ip_forward=1']), why: 'let the server namespace route to the replicas' },
    { argv: ['ip', '-n', router, 'route', 'add', `${REPLICA_LAN.prefix}.0/${REPLICA_LAN.prefixLength}`, 'via', t.addresses.server], why: 'route the replica LAN through the server namespace' },
  ];
}

/** One replica's namespace, veth onto the bridge, address, default route and pinned TCP settings. */
export function replicaCommands(t: Topology, index: number, tcp: TcpSettings): Command[] {
  const ns = replicaNamespace(t, index);
  const port = `vr-${index}`;
  const why = `build replica r${index}`;
  const argvs: string[][] = [
    ['ip', 'netns', 'add', ns],
    ['ip', '-n', ns, 'link', 'set', 'lo', 'up'],
    // Created inside the namespaces, as the stage's own veths: nothing appears on the host.
    ['ip', '-n', ns, 'link', 'add', 'eth0', 'mtu', String(t.mtu), 'type', 'veth', 'peer', 'name', port, 'mtu', String(t.mtu), 'netns', t.namespaces.server],
    ['ip', '-n', t.namespaces.server, 'link', 'set', port, 'master', REPLICA_LAN.bridge],
    ['ip', '-n', t.namespaces.server, 'link', 'set', port, 'up'],
    ['ip', '-n', ns, 'addr', 'add', `${replicaAddress(index)}/${REPLICA_LAN.prefixLength}`, 'dev', 'eth0'],
    ['ip', '-n', ns, 'link', 'set', 'eth0', 'up'],
    ['ip', '-n', ns, 'route', 'add', 'default', 'via', REPLICA_LAN.gateway],
    inNs(ns, ['sysctl', '-qw', `net.ipv4.tcp_congestion_control=${tcp.congestionControl}`]),
    inNs(ns, ['sysctl', '-qw', `net.ipv4.tcp_rmem=${tcp.rmem.join(' ')}`]),
    inNs(ns, ['sysctl', '-qw', `net.ipv4.tcp_wmem=${tcp.wmem.join(' ')}`]),
  ];
  return argvs.map((argv) => ({ argv, why }));
}

/**
 * The replicas of one stage. add() builds a replica (namespace, address, cgroup), remove() takes one
 * down (its processes, cgroup and namespace); the stage's teardown removes every namespace and cgroup
 * named after its run, so whatever this leaves at a crash goes with the stage.
 */
export class ReplicaSet {
  private readonly live = new Map<number, Replica>();
  private next = 1;

  constructor(
    private readonly t: Topology,
    private readonly tcp: TcpSettings,
    /** Thousandths of a core per replica; null: no limit (the group still counts throttling, which stays 0). */
    readonly millicores: number | null,
  ) {
    for (const command of replicaLanCommands(t)) runStageCommand(command);
  }

  /** Why replicas with a CPU limit cannot run here, or null. */
  static limitUnavailable(): string | null {
    const hierarchy = cpuHierarchy();
    return typeof hierarchy === 'string' ? hierarchy : null;
  }

  add(): Replica {
    if (this.live.size >= MAX_REPLICAS) throw new Error(`at most ${MAX_REPLICAS} replicas`);
    const index = this.next++;
    for (const command of replicaCommands(this.t, index, this.tcp)) runStageCommand(command);
    let cgroup: CpuCgroup | null = null;
    if (this.millicores !== null) {
      const hierarchy = cpuHierarchy();
      if (typeof hierarchy === 'string') throw new Error(`--cpu-limit: ${hierarchy}`);
      cgroup = createCpuCgroup(hierarchy, replicaNamespace(this.t, index), this.millicores);
    }
    const replica: Replica = { index, name: `r${index}`, namespace: replicaNamespace(this.t, index), address: replicaAddress(index), cgroup };
    this.live.set(index, replica);
    return replica;
  }

  /**
   * argv run in the replica's namespace, inside its cgroup when it has one (the PID stays the app's).
   * The cgroup is joined first, from the host: `ip netns exec` mounts the namespace's own /sys, where
   * /sys/fs/cgroup is not.
   */
  wrap(replica: Replica, argv: readonly string[]): string[] {
    const inside = inNs(replica.namespace, argv);
    return replica.cgroup ? inCgroup(replica.cgroup, inside) : inside;
  }

  throttling(replica: Replica): CpuThrottling | null {
    return replica.cgroup ? readThrottling(replica.cgroup) : null;
  }

  /** Takes the replica down: what runs in it is killed by PID (the caller stops its apps gracefully first), then its cgroup and namespace. */
  remove(replica: Replica): string[] {
    this.live.delete(replica.index);
    const failures: string[] = [];
    const pids = runStageCommand(['ip', 'netns', 'pids', replica.namespace]).split('\n').map(Number).filter((pid) => pid > 0);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    if (replica.cgroup) {
      const failure = removeCgroup(replica.cgroup.dir);
      if (failure) failures.push(failure);
    }
    try {
      runStageCommand(['ip', '-n', this.t.namespaces.server, 'link', 'delete', `vr-${replica.index}`]);
    } catch {
      // goes with the namespace's veth end anyway
    }
    runStageCommand(['ip', 'netns', 'delete', replica.namespace]);
    return failures;
  }

  list(): Replica[] {
    return [...this.live.values()];
  }

  record(): ReplicaRecord[] {
    return this.list().map((r) => ({
      name: r.name,
      namespace: r.namespace,
      address: r.address,
      cpuLimit: r.cgroup && r.cgroup.millicores !== null ? { millicores: r.cgroup.millicores, cgroup: r.cgroup.dir, version: r.cgroup.version, setting: r.cgroup.setting } : null,
    }));
  }
}
