// The broker's place on a stage (issue #42 item 3): a namespace of its own behind the router, so a call
// through a broker crosses client → broker → server, each hop with the profile's delay. The delayer
// already holds what the client sends (client → server and client → broker); the broker rule holds what
// the server side sends to the broker, so the server ↔ broker round trip gets the same one hold.
import type { Command } from './commands';
import { DELAYER_QUEUE, inNs } from './commands';
import { helperScript } from './helpers';
import type { NetworkProfile } from './profile';
import { runToEnd, spawnUntilFirstLine } from './spawn-ready';
import { offloadsOff, type TcpSettings, type Topology } from './topology';

/** The broker's namespace, its address and the router's side of its link (198.18.3.0/24). */
export interface BrokerPlace {
  namespace: string;
  host: string;
  routerSide: string;
  interfaces: { router: string; broker: string };
}

export function brokerPlaceFor(t: Topology): BrokerPlace {
  return { namespace: `${t.namespaces.router.replace(/-router$/, '')}-broker`, host: '198.18.3.2', routerSide: '198.18.3.1', interfaces: { router: 'veth-rb', broker: 'veth-b' } };
}

/** The broker's namespace and link, as setupCommands builds the client's and servers'. */
export function brokerSetupCommands(t: Topology, profile: NetworkProfile, tcp: TcpSettings): Command[] {
  const b = brokerPlaceFor(t);
  const router = t.namespaces.router;
  const cidr = (address: string) => `${address}/${t.prefixLength}`;
  const commands: Command[] = [];
  const add = (why: string, ...argvs: string[][]) => argvs.forEach((argv) => commands.push({ argv, why }));
  add('create the broker namespace', ['ip', 'netns', 'add', b.namespace], ['ip', '-n', b.namespace, 'link', 'set', 'lo', 'up']);
  add('link the broker to the router', ['ip', '-n', b.namespace, 'link', 'add', b.interfaces.broker, 'mtu', String(t.mtu), 'type', 'veth', 'peer', 'name', b.interfaces.router, 'mtu', String(t.mtu), 'netns', router]);
  add('address the broker link', ['ip', '-n', b.namespace, 'addr', 'add', cidr(b.host), 'dev', b.interfaces.broker], ['ip', '-n', router, 'addr', 'add', cidr(b.routerSide), 'dev', b.interfaces.router]);
  add('bring the broker link up', ['ip', '-n', b.namespace, 'link', 'set', b.interfaces.broker, 'up'], ['ip', '-n', router, 'link', 'set', b.interfaces.router, 'up']);
  add('route the broker through the router', ['ip', '-n', b.namespace, 'route', 'add', 'default', 'via', b.routerSide]);
  add(
    'pin TCP settings in the broker namespace',
    inNs(b.namespace, ['sysctl', '-qw', `net.ipv4.tcp_congestion_control=${tcp.congestionControl}`]),
    inNs(b.namespace, ['sysctl', '-qw', `net.ipv4.tcp_rmem=${tcp.rmem.join(' ')}`]),
    inNs(b.namespace, ['sysctl', '-qw', `net.ipv4.tcp_wmem=${tcp.wmem.join(' ')}`]),
  );
  if (offloadsOff(profile)) {
    for (const [ns, dev] of [[b.namespace, b.interfaces.broker], [router, b.interfaces.router]]) add('turn offloads off for per-segment loss', inNs(ns, ['ethtool', '-K', dev, 'gso', 'off', 'tso', 'off', 'gro', 'off']));
  }
  if (profile.rateMbit !== null) {
    const rate = `${Math.round(profile.rateMbit * 1000)}kbit`;
    add(
      'limit the rate towards the broker (htb on the router egress)',
      ['tc', '-n', router, 'qdisc', 'add', 'dev', b.interfaces.router, 'root', 'handle', '1:', 'htb', 'default', '1'],
      ['tc', '-n', router, 'class', 'add', 'dev', b.interfaces.router, 'parent', '1:', 'classid', '1:1', 'htb', 'rate', rate, 'ceil', rate],
    );
  }
  return commands;
}

/** Holds what the servers' side sends to the broker (run once the delayer is bound, like queueRuleCommand). */
export function brokerQueueRuleCommand(t: Topology): Command {
  const b = brokerPlaceFor(t);
  return {
    argv: inNs(t.namespaces.router, ['iptables', '-w', '-A', 'FORWARD', '-i', t.interfaces.routerToServer, '-o', b.interfaces.router, '-j', 'NFQUEUE', '--queue-num', String(DELAYER_QUEUE)]),
    why: 'send what the servers send to the broker to the delayer (held for the whole round trip)',
  };
}

/** Each hop's TCP connect RTTs (ms): client → broker and server → broker, one connection after another. */
export async function brokerHopRtts(t: Topology, samples: number, timeoutMs: number): Promise<{ clientToBroker: number[]; serverToBroker: number[] }> {
  const b = brokerPlaceFor(t);
  const { child, line } = await spawnUntilFirstLine(inNs(b.namespace, [process.execPath, helperScript('probe-server'), b.host]));
  try {
    const port = String((JSON.parse(line) as { port: number }).port);
    const from = async (ns: string, count: number) => (JSON.parse(await runToEnd(inNs(ns, [process.execPath, helperScript('probe-client'), 'rtt', b.host, port, String(count)]), timeoutMs)) as { samplesMs: number[] }).samplesMs;
    // The first connections after the link is built are slower (ARP, page faults): not measured.
    await from(t.namespaces.client, 5);
    await from(t.namespaces.server, 5);
    return { clientToBroker: await from(t.namespaces.client, samples), serverToBroker: await from(t.namespaces.server, samples) };
  } finally {
    child.kill('SIGTERM');
  }
}

/** Each hop's RTT against the profile's: the reasons to refuse the stage (none when both are within tolerance). */
export function judgeBrokerHops(expectedRttMs: number, allowedErrorMs: number, hops: { clientToBrokerMs: { median: number }; serverToBrokerMs: { median: number } }): string[] {
  return (Object.entries(hops) as [string, { median: number }][])
    .filter(([, hop]) => Math.abs(hop.median - expectedRttMs) > allowedErrorMs)
    .map(([name, hop]) => `${name === 'clientToBrokerMs' ? 'client → broker' : 'server → broker'} RTT ${hop.median} ms, not the profile's ${expectedRttMs} ms (± ${allowedErrorMs} ms)`);
}
