import { delayerArgv, queueRuleCommand, roundTripHoldUs, setupCommands, teardownPlan } from '../../../src/network/stage/commands';
import { tcpSettingsFor, topologyFor } from '../../../src/network/stage/topology';
import { profileRecord as profile } from './profile-record';

const t = topologyFor('Run 2026-01-02T03:04:05Z');
const tcp = tcpSettingsFor('bbr');

/** The namespace a command acts in, or null if it would act on the host. */
function namespaceOf(argv: string[]): string | null {
  if (argv[0] === 'ip' && argv[1] === 'netns' && ['add', 'delete', 'exec'].includes(argv[2])) return argv[3];
  if ((argv[0] === 'ip' || argv[0] === 'tc') && argv[1] === '-n') return argv[2];
  return null;
}

describe('stage commands', () => {
  it('touch only the stage namespaces: no host interface, route, iptables rule or sysctl', () => {
    const ours = new Set(Object.values(t.namespaces));
    for (const { argv } of [...setupCommands(t, profile(), tcp), queueRuleCommand(t)]) {
      expect([argv.join(' '), ours.has(namespaceOf(argv) ?? '')]).toEqual([argv.join(' '), true]);
    }
  });

  it('build in order: namespaces, links, addresses, routes, forwarding, TCP settings, offloads, rate, counters, loss', () => {
    const whys = [...new Set(setupCommands(t, profile(), tcp).map((c) => c.why))];
    expect(whys).toEqual([
      'create the namespaces',
      'bring loopback up',
      'create the veth pairs',
      'address the links',
      'bring the links up',
      'route through the router',
      'let the router forward',
      'pin TCP settings in the namespace',
      'turn offloads off for per-segment loss',
      'limit the rate of each direction (htb on the router egress)',
      'count forwarded packets',
      'drop at random (each direction)',
    ]);
    const argvs = setupCommands(t, profile(), tcp).map((c) => c.argv.join(' '));
    expect(argvs).toContain(`ip netns exec ${t.namespaces.router} iptables -w -A FORWARD -m statistic --mode random --probability 0.001 -j DROP`);
    expect(argvs).toContain(`tc -n ${t.namespaces.router} class add dev veth-rs parent 1: classid 1:1 htb rate 100000kbit ceil 100000kbit`);
    expect(argvs).toContain(`ip netns exec ${t.namespaces.server} sysctl -qw net.ipv4.tcp_rmem=4096 131072 33554432`);
    expect(argvs.filter((a) => a.includes('ethtool -K'))).toHaveLength(4);
  });

  it('leave offloads, rate and loss alone when the profile has none', () => {
    const whys = new Set(setupCommands(t, profile({ rateMbit: null, loss: 0 }), tcp).map((c) => c.why));
    expect(whys.has('turn offloads off for per-segment loss')).toBe(false);
    expect(whys.has('limit the rate of each direction (htb on the router egress)')).toBe(false);
    expect(whys.has('drop at random (each direction)')).toBe(false);
  });

  it('run the delayer in the router namespace, queue 0, dying with its parent; no --queue-bypass (a dead delayer must show)', () => {
    expect(delayerArgv(t, '/d', 9460.4, 0)).toEqual(['ip', 'netns', 'exec', t.namespaces.router, '/d', '--queue', '0', '--delay', '9460us', '--jitter', '0us', '--exit-with-parent']);
    expect(queueRuleCommand(t).argv).not.toContain('--queue-bypass');
  });

  it('hold only what the client side sends, for the whole round trip (half the packets, the same RTT)', () => {
    expect(queueRuleCommand(t).argv).toEqual(['ip', 'netns', 'exec', t.namespaces.router, 'iptables', '-w', '-A', 'FORWARD', '-i', t.interfaces.routerToClient, '-j', 'NFQUEUE', '--queue-num', '0']);
    expect(roundTripHoldUs(10)).toEqual({ holdUs: 20_000, jitterUs: 0 });
    // Two one-way uniform jitters of ±1 ms have the variance of one of ±√2 ms.
    expect(roundTripHoldUs(40, 1).jitterUs).toBeCloseTo(1414.2, 1);
  });

  it('tear down processes first (delayer, then anything left in a namespace), namespaces last', () => {
    const [c, s, r] = [t.namespaces.client, t.namespaces.server, t.namespaces.router];
    const plan = teardownPlan([c, s, r], new Map([[c, [11, 12]], [r, [99, 13]]]), 99);
    expect(plan.map((step) => (step.kind === 'signal' ? `kill ${step.pid}` : step.argv.join(' ')))).toEqual([
      'kill 99',
      'kill 11',
      'kill 12',
      'kill 13',
      `ip netns delete ${c}`,
      `ip netns delete ${s}`,
      `ip netns delete ${r}`,
    ]);
  });
});
