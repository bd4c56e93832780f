import type { NetworkProfile } from './profile';
import { offloadsOff, type TcpSettings, type Topology } from './topology';
import { rttMs } from '../../model';

/** A command the stage runs, with why (shown when it fails). */
export interface Command {
  argv: string[];
  why: string;
}

/** The netfilter queue the delayer reads, in the router namespace (queues are per namespace). */
export const DELAYER_QUEUE = 0;

/** argv run inside namespace `ns` (`ip netns exec`, which also mounts the namespace's own /sys). */
export const inNs = (ns: string, argv: readonly string[]): string[] => ['ip', 'netns', 'exec', ns, ...argv];

/**
 * Everything that builds the stage except the delayer's queue rule (added once the delayer is bound:
 * with no --queue-bypass, a queue without a reader drops packets, so the rule comes last). Every
 * command names a namespace of the stage: nothing here touches the host's interfaces, routes,
 * iptables or sysctls.
 */
export function setupCommands(t: Topology, profile: NetworkProfile, tcp: TcpSettings): Command[] {
  const { client, router, server } = t.namespaces;
  const i = t.interfaces;
  const a = t.addresses;
  const cidr = (address: string) => `${address}/${t.prefixLength}`;
  const commands: Command[] = [];
  const add = (why: string, ...argvs: string[][]) => argvs.forEach((argv) => commands.push({ argv, why }));

  add('create the namespaces', ...[client, router, server].map((ns) => ['ip', 'netns', 'add', ns]));
  add('bring loopback up', ...[client, router, server].map((ns) => ['ip', '-n', ns, 'link', 'set', 'lo', 'up']));
  // Created inside the namespaces (`ip -n`, peer `netns`): no interface ever appears on the host.
  add(
    'create the veth pairs',
    ['ip', '-n', client, 'link', 'add', i.client, 'mtu', String(t.mtu), 'type', 'veth', 'peer', 'name', i.routerToClient, 'mtu', String(t.mtu), 'netns', router],
    ['ip', '-n', server, 'link', 'add', i.server, 'mtu', String(t.mtu), 'type', 'veth', 'peer', 'name', i.routerToServer, 'mtu', String(t.mtu), 'netns', router],
  );
  add(
    'address the links',
    ['ip', '-n', client, 'addr', 'add', cidr(a.client), 'dev', i.client],
    ['ip', '-n', router, 'addr', 'add', cidr(a.routerClientSide), 'dev', i.routerToClient],
    ['ip', '-n', router, 'addr', 'add', cidr(a.routerServerSide), 'dev', i.routerToServer],
    ['ip', '-n', server, 'addr', 'add', cidr(a.server), 'dev', i.server],
  );
  add(
    'bring the links up',
    ['ip', '-n', client, 'link', 'set', i.client, 'up'],
    ['ip', '-n', router, 'link', 'set', i.routerToClient, 'up'],
    ['ip', '-n', router, 'link', 'set', i.routerToServer, 'up'],
    ['ip', '-n', server, 'link', 'set', i.server, 'up'],
  );
  add('route through the router', ['ip', '-n', client, 'route', 'add', 'default', 'via', a.routerClientSide], ['ip', '-n', server, 'route', 'add', 'default', 'via', a.routerServerSide]);
  add('let the router forward', inNs(router, ['sysctl', '-qw', 'net.ipv4.ip_forward=1']));
  for (const ns of [client, router, server]) {
    add(
      'pin TCP settings in the namespace',
      inNs(ns, ['sysctl', '-qw', `net.ipv4.tcp_congestion_control=${tcp.congestionControl}`]),
      inNs(ns, ['sysctl', '-qw', `net.ipv4.tcp_rmem=${tcp.rmem.join(' ')}`]),
      inNs(ns, ['sysctl', '-qw', `net.ipv4.tcp_wmem=${tcp.wmem.join(' ')}`]),
    );
  }
  if (offloadsOff(profile)) {
    for (const [ns, dev] of vethEnds(t)) add('turn offloads off for per-segment loss', inNs(ns, ['ethtool', '-K', dev, 'gso', 'off', 'tso', 'off', 'gro', 'off']));
  }
  if (profile.rateMbit !== null) {
    const rate = `${Math.round(profile.rateMbit * 1000)}kbit`;
    for (const dev of [i.routerToClient, i.routerToServer]) {
      add(
        'limit the rate of each direction (htb on the router egress)',
        ['tc', '-n', router, 'qdisc', 'add', 'dev', dev, 'root', 'handle', '1:', 'htb', 'default', '1'],
        ['tc', '-n', router, 'class', 'add', 'dev', dev, 'parent', '1:', 'classid', '1:1', 'htb', 'rate', rate, 'ceil', rate],
      );
    }
  }
  // Rule 1 only counts (no target): forwarded packets, for observed loss and the delayer's per-packet cost.
  add('count forwarded packets', inNs(router, ['iptables', '-w', '-A', 'FORWARD']));
  if (profile.loss > 0) {
    add('drop at random (each direction)', inNs(router, ['iptables', '-w', '-A', 'FORWARD', '-m', 'statistic', '--mode', 'random', '--probability', String(profile.loss), '-j', 'DROP']));
  }
  return commands;
}

/**
 * Sends the packets the router forwards from the client's side to the delayer's queue; run once the
 * delayer has bound it. Only that direction is held, for the whole round trip's delay (see
 * roundTripHoldUs): every exchange crosses it once, so handshakes, request/reply, windows and the ACK
 * clock see the same RTT as with half the delay each way, and the delayer handles about half the
 * packets (replies, the bulk of most traffic here, pass straight through).
 */
export function queueRuleCommand(t: Topology): Command {
  return {
    argv: inNs(t.namespaces.router, ['iptables', '-w', '-A', 'FORWARD', '-i', t.interfaces.routerToClient, '-j', 'NFQUEUE', '--queue-num', String(DELAYER_QUEUE)]),
    why: 'send what the client side sends to the delayer (held for the whole round trip)',
  };
}

/** The delayer's hold of a client → server packet for a profile: both one-way delays (and jitters) together. */
export function roundTripHoldUs(oneWayDelayMs: number, jitterMs = 0): { holdUs: number; jitterUs: number } {
  // Two independent uniform jitters of ±j add to one of variance 2·j²/3; one uniform draw of ±j·√2 has the same.
  return { holdUs: rttMs({ oneWayDelayMs }) * 1000, jitterUs: Math.SQRT2 * jitterMs * 1000 };
}

/** The delayer's command line, run inside the router namespace. */
export function delayerArgv(t: Topology, binary: string, holdUs: number, jitterUs: number): string[] {
  return inNs(t.namespaces.router, [binary, '--queue', String(DELAYER_QUEUE), '--delay', `${Math.round(holdUs)}us`, '--jitter', `${Math.round(jitterUs)}us`, '--exit-with-parent']);
}

/** Every veth end with its namespace. */
export function vethEnds(t: Topology): [string, string][] {
  return [
    [t.namespaces.client, t.interfaces.client],
    [t.namespaces.router, t.interfaces.routerToClient],
    [t.namespaces.router, t.interfaces.routerToServer],
    [t.namespaces.server, t.interfaces.server],
  ];
}

/** One step of taking a stage down. */
export type TeardownStep = { kind: 'signal'; pid: number; signal: 'SIGTERM' | 'SIGKILL'; why: string } | { kind: 'run'; argv: string[]; why: string };

/**
 * The order a stage comes down in: first the processes (the delayer, then anything still running in
 * a namespace: apps, forwarders, probes), so nothing is left running in a namespace without a name;
 * then the namespaces, which takes their veths, qdiscs and iptables rules with them. Killing is by
 * PID, never by name.
 */
export function teardownPlan(namespaces: readonly string[], pidsByNamespace: ReadonlyMap<string, readonly number[]>, delayerPid: number | null): TeardownStep[] {
  const steps: TeardownStep[] = [];
  if (delayerPid !== null) steps.push({ kind: 'signal', pid: delayerPid, signal: 'SIGKILL', why: 'stop the delayer' });
  for (const ns of namespaces) {
    for (const pid of pidsByNamespace.get(ns) ?? []) {
      if (pid !== delayerPid) steps.push({ kind: 'signal', pid, signal: 'SIGKILL', why: `stop what still runs in ${ns}` });
    }
  }
  for (const ns of namespaces) steps.push({ kind: 'run', argv: ['ip', 'netns', 'delete', ns], why: `delete ${ns}` });
  return steps;
}
