import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { allowedRttErrorMs, bulkBytesFor, judge, type Achieved, type NetworkProfile } from '../../src/network';
import { delayerArgv, queueRuleCommand, roundTripHoldUs, setupCommands, teardownPlan } from '../../src/network/commands';
import { expectedGoodputMbit, parsePing, parseQueueCounters, parseRuleCounters, summarize } from '../../src/network/figures';
import { acquireLock, isHeld, LockHeldError, readLock } from '../../src/network/lock';
import { startTicks } from '../../src/network/namespaces';
import { chooseCongestionControl, sanitizeRunId, tcpSettingsFor, topologyFor } from '../../src/network/topology';

const profile = (over: Partial<NetworkProfile> = {}): NetworkProfile => ({
  name: 'p',
  description: 'test',
  topology: 'namespaces',
  oneWayDelayMs: 10,
  rateMbit: 100,
  loss: 0.001,
  ...over,
});
const t = topologyFor('Run 2026-01-02T03:04:05Z');
const tcp = tcpSettingsFor('bbr');

/** The namespace a command acts in, or null if it would act on the host. */
function namespaceOf(argv: string[]): string | null {
  if (argv[0] === 'ip' && argv[1] === 'netns' && ['add', 'delete', 'exec'].includes(argv[2])) return argv[3];
  if ((argv[0] === 'ip' || argv[0] === 'tc') && argv[1] === '-n') return argv[2];
  return null;
}

describe('stage topology', () => {
  it('names namespaces with our prefix and a sanitized run id', () => {
    expect(t.namespaces).toEqual({ client: 'nbx-run-2026-01-02t03-04-05z-client', router: 'nbx-run-2026-01-02t03-04-05z-router', server: 'nbx-run-2026-01-02t03-04-05z-server' });
    expect(sanitizeRunId('--A/b--')).toBe('a-b');
    expect(() => sanitizeRunId('///')).toThrow(/no letter or digit/);
  });

  it('addresses every end from 198.18.0.0/15 (RFC 2544), never private or public ranges', () => {
    for (const address of Object.values(t.addresses)) {
      const [a, b] = address.split('.').map(Number);
      expect(a === 198 && (b === 18 || b === 19)).toBe(true);
    }
  });

  it('picks congestion control from what the host allows, never widening it', () => {
    expect(chooseCongestionControl(['reno', 'bbr'], 'bbr')).toBe('bbr');
    expect(chooseCongestionControl(['reno', 'bbr'], 'cubic')).toBe('bbr');
    expect(chooseCongestionControl(['reno'], null)).toBe('reno');
    expect(() => chooseCongestionControl([], null)).toThrow(/allows no TCP congestion control/);
  });
});

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

describe('calibration verdict', () => {
  const achieved = (over: Partial<Achieved> = {}): Achieved => ({
    tcpConnectRttMs: { median: 20.5, min: 20, max: 22, samples: 21 },
    pingRttMs: { median: 20.4, min: 20, max: 21, samples: 20, lost: 0 },
    throughput: { bytes: 1, seconds: 1, firstByteSeconds: 0.02, averageMbit: 90, steadyMbit: 95 },
    loss: { forwarded: 100_000, dropped: 100, observed: 0.001 },
    delayerDrops: 0,
    ...over,
  });
  const expected = { rttMs: 20, goodputMbit: expectedGoodputMbit(100, 1500), loss: 0.001 };

  it('allows 10 % or 0.3 ms, whichever is larger', () => {
    expect(allowedRttErrorMs(20)).toBe(2);
    expect(allowedRttErrorMs(2)).toBe(0.3);
    expect(allowedRttErrorMs(0)).toBe(0.3);
  });

  it('is ok when RTT, throughput and loss are what the profile says', () => {
    expect(judge(profile(), expected, achieved())).toEqual({ verdict: 'ok', reasons: [] });
  });

  it('refuses with the reason when the RTT, rate or loss is off, or the delayer dropped packets', () => {
    const verdict = judge(
      profile(),
      expected,
      achieved({
        tcpConnectRttMs: { median: 23, min: 22, max: 25, samples: 21 },
        throughput: { bytes: 1, seconds: 1, firstByteSeconds: 0, averageMbit: 50, steadyMbit: 60 },
        loss: { forwarded: 100_000, dropped: 0, observed: 0 },
        delayerDrops: 7,
      }),
    );
    expect(verdict.verdict).toBe('refuse');
    expect(verdict.reasons).toEqual([
      "TCP connect RTT 23 ms is 3 ms off the profile's 20 ms (allowed ±2 ms)",
      'steady throughput 60 Mbit/s is off the 95.6 Mbit/s of TCP payload that 100 Mbit/s carries (allowed ±10 %)',
      'the router dropped 0 of 100000 packets (0 %), not ≈ 0.1 %',
      'the kernel dropped 7 packets the delayer could not take in time (loss the profile does not have)',
    ]);
  });

  it('sizes the bulk transfer to the rate and RTT: slow start over before the timed half, seconds at most', () => {
    const MiB = 2 ** 20;
    expect(bulkBytesFor(profile({ rateMbit: null }), 0.1)).toBe(64 * MiB);
    expect(bulkBytesFor(profile({ rateMbit: 100 }), 80) / MiB).toBeCloseTo(28.6, 1); // 0.8 s + 1.6 s at 100 Mbit/s
    expect(bulkBytesFor(profile({ rateMbit: 1000 }), 20) / MiB).toBeCloseTo(83.4, 1); // 0.2 s + 0.5 s at 1 Gbit/s
    expect(bulkBytesFor(profile({ rateMbit: 1 }), 2)).toBe(4 * MiB);
  });
});

describe('figures', () => {
  it('summarize gives the median of odd and even counts', () => {
    expect(summarize([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3, samples: 3 });
    expect(summarize([4, 1, 2, 3]).median).toBe(2.5);
  });

  it('parse ping, iptables counters and the queue counters', () => {
    const ping = '64 bytes from 198.18.2.2: icmp_seq=1 ttl=63 time=20.4 ms\n64 bytes from 198.18.2.2: icmp_seq=2 ttl=63 time=20.6 ms\n\n--- 198.18.2.2 ping statistics ---\n3 packets transmitted, 2 received, 33% packet loss';
    expect(parsePing(ping)).toEqual({ rttsMs: [20.4, 20.6], transmitted: 3 });
    const iptables = `Chain FORWARD (policy ACCEPT 0 packets, 0 bytes)
num      pkts      bytes target     prot opt in     out     source               destination
1       12345  9876543            all  --  *      *       0.0.0.0/0            0.0.0.0/0
2          12    18000 DROP       all  --  *      *       0.0.0.0/0            0.0.0.0/0            statistic mode random probability 0.00100000005
3       12333  9858543 NFQUEUE    all  --  *      *       0.0.0.0/0            0.0.0.0/0            NFQUEUE num 0`;
    expect(parseRuleCounters(iptables)).toEqual([12345, 12, 12333]);
    expect(parseQueueCounters('    0  12046     0 1     0     3     4       40  1\n', 0)).toEqual({ queueDropped: 3, userDropped: 4 });
    expect(parseQueueCounters('', 0)).toBeNull();
  });

  it('expected goodput is the payload share of full frames', () => {
    expect(expectedGoodputMbit(100, 1500)).toBeCloseTo(95.64, 2);
  });
});

describe('network lock', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbx-lock-test-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const info = { runId: 'r', profile: 'zone', namespaces: t.namespaces };

  it('refuses a second run while the holder lives, naming it and what to do', () => {
    const file = path.join(dir, 'lock');
    fs.writeFileSync(file, JSON.stringify({ ...info, pid: process.ppid, startTicks: null, startedAt: 'then' }));
    expect(() => acquireLock(info, file)).toThrow(LockHeldError);
    expect(() => acquireLock(info, file)).toThrow(/another network run is active \(pid \d+, profile zone.*npx nx run bench:network -- down/);
  });

  it('takes over a lock whose holder is dead (a run killed with SIGKILL), and releases it', () => {
    const file = path.join(dir, 'lock');
    fs.writeFileSync(file, JSON.stringify({ ...info, pid: 2 ** 22 + 1, startTicks: null, startedAt: 'then' }));
    const release = acquireLock(info, file);
    expect(readLock(file)?.pid).toBe(process.pid);
    release();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('treats a reused PID (a live PID, another start time) as dead: takes the lock over, and releases it', () => {
    const file = path.join(dir, 'lock');
    const reused = { ...info, pid: process.ppid, startTicks: -1, startedAt: 'then' };
    fs.writeFileSync(file, JSON.stringify(reused));
    // The PID lives; with its own start time it would hold the lock, with another one it does not.
    expect(isHeld({ ...reused, startTicks: startTicks(process.ppid) })).toBe(true);
    expect(isHeld(reused)).toBe(false);
    const release = acquireLock(info, file);
    expect(readLock(file)).toMatchObject({ pid: process.pid, startTicks: startTicks(process.pid), runId: 'r' });
    release();
    expect(fs.existsSync(file)).toBe(false);
  });
});
