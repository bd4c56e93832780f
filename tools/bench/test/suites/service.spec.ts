// bench:service's parts that need no root: CPU limits and cgroup files (on a fake hierarchy), the
// virtual IP's rules, the open loop's accounting, saturation, and the report.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createCpuCgroup, cpuHierarchy, inCgroup, parseCpuLimit, parseCpuStat, readThrottling, sweepCgroups } from '../../src/network/stage/cgroups';
import { ALL_SERVICE_TRANSPORTS, BALANCING_STRATEGIES, BROKER_SHARING, BROKERED_TRANSPORTS, SERVICE_VIP, virtualIpRules } from '../../src/network/service/balancing';
import { transportsCannotRun } from '../../src/suites/service/main';
import { replicaCommands, replicaLanCommands } from '../../src/network/service/replicas';
import { endpointsDocument, frontProxyConfig } from '../../src/network/service/front-proxy';
import { topologyFor, tcpSettingsFor } from '../../src/network/stage/topology';
import { runOpenLoop } from '../../src/suites/service/open-loop';
import { saturation, type ServiceCell, type ServiceResults } from '../../src/suites/service/measure';
import { renderServiceMarkdown, saturationPoints, sharesText, type ServiceDocument } from '../../src/suites/service/render';
import { summarizeHistogram, latencyHistogram } from '../../src/suites/common/hdr';

describe('CPU limits', () => {
  it('reads Kubernetes-style quantities and refuses nonsense', () => {
    expect(parseCpuLimit('500m')).toBe(500);
    expect(parseCpuLimit('1.5')).toBe(1500);
    expect(parseCpuLimit('2')).toBe(2000);
    for (const bad of ['0', '5m', 'half', '-1', '1e3m', '']) expect(() => parseCpuLimit(bad)).toThrow(/thousandths of a core/);
  });

  it('reads throttling from v1 (ns) and v2 (µs) cpu.stat alike', () => {
    expect(parseCpuStat('nr_periods 10\nnr_throttled 4\nthrottled_time 25000000\nnr_bursts 0\nburst_time 0\n')).toEqual({ periods: 10, throttledPeriods: 4, throttledMs: 25 });
    expect(parseCpuStat('usage_usec 900\nnr_periods 10\nnr_throttled 4\nthrottled_usec 25000\n')).toEqual({ periods: 10, throttledPeriods: 4, throttledMs: 25 });
  });

  const fake = (layout: 'v1' | 'v2', subtreeCpu = true) => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cgroup-test-'));
    if (layout === 'v2') {
      fs.writeFileSync(path.join(base, 'cgroup.controllers'), 'cpuset cpu io memory pids\n');
      fs.writeFileSync(path.join(base, 'cgroup.subtree_control'), subtreeCpu ? 'cpu memory\n' : 'memory\n');
    } else {
      fs.mkdirSync(path.join(base, 'cpu'));
      fs.writeFileSync(path.join(base, 'cpu', 'cpu.cfs_quota_us'), '-1\n');
    }
    return base;
  };

  it('finds v1 or v2 and writes the quota over a 100 ms period in that version\'s file', () => {
    const v1 = fake('v1');
    const v2 = fake('v2');
    try {
      const h1 = cpuHierarchy(v1);
      const h2 = cpuHierarchy(v2);
      expect(h1).toEqual({ version: 'v1', root: path.join(v1, 'cpu') });
      expect(h2).toEqual({ version: 'v2', root: v2 });
      if (typeof h1 === 'string' || typeof h2 === 'string') throw new Error('unreachable');
      const g1 = createCpuCgroup(h1, 'nbx-test-r1', 500);
      expect(fs.readFileSync(path.join(g1.dir, 'cpu.cfs_quota_us'), 'utf8')).toBe('50000');
      expect(fs.readFileSync(path.join(g1.dir, 'cpu.cfs_period_us'), 'utf8')).toBe('100000');
      const g2 = createCpuCgroup(h2, 'nbx-test-r1', 1500);
      expect(fs.readFileSync(path.join(g2.dir, 'cpu.max'), 'utf8')).toBe('150000 100000');
      expect(g2.setting).toBe('cpu.max 150000 100000');
      fs.writeFileSync(path.join(g2.dir, 'cpu.stat'), 'nr_periods 3\nnr_throttled 1\nthrottled_usec 7000\n');
      expect(readThrottling(g2)).toEqual({ periods: 3, throttledPeriods: 1, throttledMs: 7 });
      // The app joins before it execs: same PID, limited from its first instruction.
      expect(inCgroup(g2, ['node', 'main.js'])).toEqual(['sh', '-c', 'echo $$ > "$0" && exec "$@"', path.join(g2.dir, 'cgroup.procs'), 'node', 'main.js']);
      expect(() => createCpuCgroup(h2, 'other', 500)).toThrow(/named nbx-/);
    } finally {
      fs.rmSync(v1, { recursive: true, force: true });
      fs.rmSync(v2, { recursive: true, force: true });
    }
  });

  it('says why there is no CPU controller rather than enabling one on the host', () => {
    const v2 = fake('v2', false);
    try {
      expect(cpuHierarchy(v2)).toMatch(/does not delegate the cpu controller/);
      expect(cpuHierarchy(path.join(v2, 'missing'))).toMatch(/no CPU cgroup/);
    } finally {
      fs.rmSync(v2, { recursive: true, force: true });
    }
  });

  it("sweeps a dead run's groups but keeps a live run's (on a fake v2 hierarchy: plain folders)", () => {
    const v2 = fake('v2');
    try {
      for (const name of ['nbx-dead-r1', 'nbx-live-r1', 'not-ours']) fs.mkdirSync(path.join(v2, name));
      expect(sweepCgroups('nbx-live-', v2)).toEqual({ removed: ['nbx-dead-r1'], failures: [] });
      expect(fs.readdirSync(v2).sort()).toEqual(['cgroup.controllers', 'cgroup.subtree_control', 'nbx-live-r1', 'not-ours']);
    } finally {
      fs.rmSync(v2, { recursive: true, force: true });
    }
  });
});

describe('balancing strategies as data', () => {
  it('are sibling records of one shape, each naming what it does not apply to with a reason', () => {
    const keys = Object.keys(BALANCING_STRATEGIES[0]).sort();
    for (const s of BALANCING_STRATEGIES) {
      expect(Object.keys(s).sort()).toEqual(keys);
      for (const [transport, why] of Object.entries(s.notFor)) {
        expect(ALL_SERVICE_TRANSPORTS).toContain(transport);
        expect(why).toMatch(/\w{10}/);
      }
    }
    expect(BALANCING_STRATEGIES.map((s) => s.name)).toEqual(['l4', 'dns-round-robin', 'max-connection-age', 'l7-proxy', 'broker']);
  });

  it('puts each brokered transport behind the broker strategy only, and nest-tcp where gRPC goes', () => {
    const applies = (transport: string) => BALANCING_STRATEGIES.filter((s) => !s.notFor[transport as keyof typeof s.notFor]).map((s) => s.name);
    for (const transport of BROKERED_TRANSPORTS) expect(applies(transport)).toEqual(['broker']);
    expect(applies('nest-tcp')).toEqual(['l4', 'dns-round-robin']);
    expect(applies('grpc')).toEqual(['l4', 'dns-round-robin', 'max-connection-age', 'l7-proxy']);
    // Every broker's mechanism is a record; only Redis pub/sub does not spread (it says so).
    expect(Object.keys(BROKER_SHARING).sort()).toEqual([...BROKERED_TRANSPORTS].sort());
    expect(BROKERED_TRANSPORTS.filter((t) => !BROKER_SHARING[t].spreads)).toEqual(['nest-redis']);
  });

  it('refuses combinations that cannot work, naming why', () => {
    expect(transportsCannotRun(['http-json', 'grpc'], ['broker'], false)).toMatch(/no strategy applies to any transport.*broker × grpc: has no broker/);
    expect(transportsCannotRun(['nest-nats'], ['l4', 'l7-proxy'], false)).toMatch(/l4 × nest-nats: goes through a broker/);
    expect(transportsCannotRun(['nest-tcp'], ['l4'], true)).toMatch(/plaintext only/);
    expect(transportsCannotRun(['http-json', 'grpc'], ['l4', 'broker'], false)).toBeNull();
  });

  it("l4 writes kube-proxy's rules: each of n endpoints with probability 1/(n − i), the last unconditional", () => {
    const rules = virtualIpRules([9090], ['198.18.4.11', '198.18.4.12', '198.18.4.13']);
    expect(rules.split('\n')).toEqual([
      '*nat',
      ':NBX-SERVICES - [0:0]',
      ':NBX-SVC-9090 - [0:0]',
      `-A NBX-SERVICES -d ${SERVICE_VIP}/32 -p tcp -m tcp --dport 9090 -j NBX-SVC-9090`,
      '-A NBX-SVC-9090 -p tcp -m tcp -m statistic --mode random --probability 0.3333333333 -j DNAT --to-destination 198.18.4.11:9090',
      '-A NBX-SVC-9090 -p tcp -m tcp -m statistic --mode random --probability 0.5000000000 -j DNAT --to-destination 198.18.4.12:9090',
      '-A NBX-SVC-9090 -p tcp -m tcp -j DNAT --to-destination 198.18.4.13:9090',
      'COMMIT',
      '',
    ]);
  });

  it("replicas are built only inside the stage's namespaces", () => {
    const t = topologyFor('unit');
    const commands = [...replicaLanCommands(t), ...replicaCommands(t, 1, tcpSettingsFor('bbr'))];
    for (const { argv } of commands) {
      const named = argv.join(' ');
      expect(named).toMatch(/nbx-unit-(server|router|r1)\b/);
    }
    expect(commands.map((c) => c.argv.join(' '))).toContain('ip -n nbx-unit-r1 addr add 198.18.4.11/24 dev eth0');
  });
});

describe("l7-proxy's Envoy", () => {
  it('balances round robin over endpoints from a watched file, HTTP/2 upstream for gRPC', () => {
    const routes = [
      { name: 'server-a', listenPort: 18080, replicaPort: 8080, protocol: 'http1' as const },
      { name: 'server-b', listenPort: 19090, replicaPort: 9090, protocol: 'http2' as const },
    ];
    const config = JSON.stringify(frontProxyConfig(routes, '198.18.2.2', '/tmp/a.sock', (r) => `/tmp/eds-${r.name}.json`));
    expect(config).toContain('"lb_policy":"ROUND_ROBIN"');
    expect(config).toContain('"path_config_source":{"path":"/tmp/eds-server-b.json"}');
    expect(config).toContain('"http2_protocol_options":{}');
    expect(JSON.stringify(endpointsDocument(routes[1], ['198.18.4.11', '198.18.4.12']))).toContain('{"address":"198.18.4.12","port_value":9090}');
  });
});

describe('the open loop', () => {
  it('sends rate × duration calls, counts errors by message, and never exceeds its in-flight cap', async () => {
    let inFlight = 0;
    let most = 0;
    const slow = () =>
      new Promise<void>((resolve) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        setTimeout(() => {
          inFlight -= 1;
          resolve();
        }, 30);
      });
    const r = await runOpenLoop({ rate: 400, durationMs: 250, maxInFlight: 3, drainMs: 2000 }, slow);
    expect(r.due).toBe(100);
    expect(r.sent).toBe(100);
    expect(r.ok).toBe(100);
    expect(most).toBeLessThanOrEqual(3);
    // Waiting for a slot counts: latency from the due time is never below latency from sending.
    expect(r.corrected.getValueAtPercentile(99)).toBeGreaterThanOrEqual(r.service.getValueAtPercentile(99));
    const failing = await runOpenLoop({ rate: 200, durationMs: 100, maxInFlight: 10, drainMs: 1000 }, () => Promise.reject(new Error('HTTP 503')));
    expect(failing).toMatchObject({ due: 20, ok: 0, errors: 20, errorKinds: { 'HTTP 503': 20 } });
  });

  it('counts calls still in flight after the drain as errors, not as lost', async () => {
    const r = await runOpenLoop({ rate: 100, durationMs: 50, maxInFlight: 10, drainMs: 100 }, () => new Promise<void>(() => undefined));
    expect(r.errors).toBe(r.due);
    expect(Object.keys(r.errorKinds)[0]).toMatch(/no reply within 100 ms/);
  });
});

/** A quick run's document around `results`. */
const quickDoc = (results: ServiceResults): ServiceDocument => ({
  schemaVersion: 2,
  suite: 'service',
  incomplete: false,
  provenance: {},
  settings: { stepMs: 1000, warmupMs: 0, drainMs: 1000, deadlineMs: 1000, changeRate: 0, changePhaseMs: 1000, faultRate: 40, faultPhaseMs: 1000, startedAt: 'now', preset: 'quick', cpuCount: 2, cores: '2 CPUs' },
  plan: {},
  results,
});

describe('saturation and the report', () => {
  const summary = (ms: number) => {
    const h = latencyHistogram();
    h.recordValue(ms * 1000);
    return summarizeHistogram(h);
  };
  const cell = (strategy: 'l4' | 'dns-round-robin', offered: number, requests: number[], p99: number, saturated: string | null = null): ServiceCell => ({
    strategy,
    transport: 'grpc',
    offeredPerS: offered,
    ok: offered,
    errors: 0,
    errorKinds: {},
    throughputPerS: offered,
    corrected: summary(p99),
    service: summary(p99),
    maxSendLagMs: 0,
    replicas: requests.map((n, i) => ({ name: `r${i + 1}`, requests: n, cpuMs: n, throttling: { periods: 10, throttledPeriods: 0, throttledMs: 0 } })),
    cpuMs: { driver: 10, replicas: 20, delayer: 5, receive: 1, proxy: null },
    cpuPer1000CallsMs: 36,
    saturated,
    dns: { queries: offered === 100 && strategy === 'dns-round-robin' ? 7 : 0, lookups: 0, nxdomain: 0, byType: {} },
  });

  it('calls a step saturated on throughput, errors or p99', () => {
    const p99 = (ms: number) => ({ p99Ms: ms });
    expect(saturation({ rate: 100, due: 100, errors: 0, throughputPerS: 99, corrected: p99(10) })).toBeNull();
    expect(saturation({ rate: 100, due: 100, errors: 0, throughputPerS: 80, corrected: p99(10) })).toMatch(/80 of 100/);
    expect(saturation({ rate: 100, due: 100, errors: 2, throughputPerS: 99, corrected: p99(10) })).toMatch(/2 errors/);
    expect(saturation({ rate: 100, due: 100, errors: 0, throughputPerS: 99, corrected: p99(1500) })).toMatch(/p99 1500/);
  });

  it('reports the highest sustained rate with its p99 and shares, and each replica\'s share', () => {
    const cells = [cell('l4', 100, [100, 0, 0], 5), cell('l4', 200, [200, 0, 0], 9), cell('l4', 400, [300, 0, 0], 2000, 'p99 2000 ms'), cell('dns-round-robin', 100, [34, 33, 33], 6)];
    expect(sharesText(cells[0])).toBe('100% / 0% / 0%');
    expect(saturationPoints(cells)[0]).toMatchObject({ strategy: 'l4', sustained: { offeredPerS: 200, shares: '100% / 0% / 0%' }, saturatedAt: 400 });
    const md = renderServiceMarkdown(
      quickDoc({
        replicas: [],
        cells,
        changes: [],
        driverStarts: [
          { strategy: 'l4', transport: 'grpc', dns: { queries: 0, lookups: 0, nxdomain: 0, byType: {} } },
          { strategy: 'dns-round-robin', transport: 'grpc', dns: { queries: 6, lookups: 1, nxdomain: 2, byType: { A: 2, AAAA: 2, TXT: 2 } } },
        ],
        skipped: [{ strategy: 'l7-proxy', transport: 'all', why: 'Envoy is not installed' }],
        failures: [],
      }),
    );
    expect(md).toContain('| l4 | grpc | 200 |');
    // The DNS queries per step, and what each driver's first lookups cost (only drivers that asked).
    expect(md).toMatch(/\| dns-round-robin \| grpc \| 100 \|.*\| 7 \|/);
    expect(md).toContain('dns-round-robin × grpc 6 (2 A, 2 AAAA, 2 TXT; 2 NXDOMAIN)');
    expect(md).not.toContain('l4 × grpc 0');
    expect(md).toContain('34% / 33% / 33%');
    expect(md).toContain('not run: l7-proxy: Envoy is not installed');
    expect(md).not.toContain('Replicas behind a broker');
  });

  it('reports how each broker shared the requests: replica requests per call, the broker\'s CPU', () => {
    const spread = { ...cell('l4', 100, [34, 33, 33], 5), strategy: 'broker' as const, transport: 'nest-nats' as const, cpuMs: { driver: 10, replicas: 20, delayer: 5, receive: 1, proxy: null, broker: 7 } };
    const everyone = { ...cell('l4', 100, [100, 100, 100], 5), strategy: 'broker' as const, transport: 'nest-redis' as const };
    const md = renderServiceMarkdown(
      quickDoc({
        replicas: [],
        cells: [spread, everyone],
        changes: [],
        driverStarts: [],
        skipped: [],
        failures: [],
        sharing: (['nest-nats', 'nest-redis'] as const).map((transport) => ({ transport, broker: transport === 'nest-nats' ? 'nats' : 'redis', partitions: null, ...BROKER_SHARING[transport] })),
      }),
    );
    expect(md).toContain('## Replicas behind a broker');
    expect(md).toMatch(/\| nest-nats \| nats \| NATS queue group.*\| yes: each request to one replica \|.*\| 34 \/ 33 \/ 33 \| 1\.00 \|/);
    expect(md).toMatch(/\| nest-redis \| redis \| Redis pub\/sub.*\| no: every replica gets every request \|.*\| 100 \/ 100 \/ 100 \| 3\.00 \|/);
    expect(md).toMatch(/\| broker \| nest-nats \| 100 \|.*\| 1\.00 \| 34 \/ 33 \/ 33 \| 7 \|/);
  });
});
