// Root-only: real replicas behind a real stage (namespaces, a bridge, CPU cgroups, kube-proxy-style
// DNAT rules, a headless name served by a real DNS server), real server-a/server-b in each, the
// open-loop driver in the client namespace. Asserts from the replicas' own counters: l4 pins one gRPC
// channel to one replica, dns-round-robin spreads it, max-connection-age re-balances without an
// error; from the DNS server's log: only the headless name is asked for, and only by its clients; and
// that nothing (dnsmasq included) is left after a stop, a Ctrl-C, or a SIGKILL and the next start.
// A missing prerequisite fails under CI=true and skips elsewhere, saying why (needs.ts).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { cleanupLeftovers, startStage, type NetworkProfile } from '../src/network/stage';
import { validateProfile } from '../src/network/stage/profile';
import { findStrategy } from '../src/network/service/balancing';
import { measureService, type ServiceCell, type ServiceResults } from '../src/suites/service/measure';
import { describeNeeding } from './needs';
import { serviceStageMissing } from './service-stage';

const DIST = path.resolve(__dirname, '../dist');
const tiny: NetworkProfile = validateProfile({ name: 'test-tiny', description: 'test only: 3 ms each way', topology: 'namespaces', oneWayDelayMs: 3, rateMbit: null, loss: 0 });

const describeRoot = (name: string, body: () => void) => describeNeeding(name, [serviceStageMissing(tiny)], body);

const namespaces = () => spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout;
const cgroups = () => (fs.existsSync('/sys/fs/cgroup/cpu') ? fs.readdirSync('/sys/fs/cgroup/cpu') : fs.readdirSync('/sys/fs/cgroup')).filter((n) => n.startsWith('nbx-'));
const netnsEtc = () => (fs.existsSync('/etc/netns') ? fs.readdirSync('/etc/netns').filter((n) => n.startsWith('nbx-')) : []);
const leftovers = (runId: string) => [...namespaces().split('\n').filter((n) => n.includes(`nbx-${runId}`)), ...cgroups().filter((n) => n.includes(runId)), ...netnsEtc().filter((n) => n.includes(runId))];

describeRoot('bench:service behind a Service (root)', () => {
  it('l4 pins one gRPC channel to one replica; dns-round-robin spreads it; max-connection-age re-balances without errors; replicas join and leave under load losing nothing; nothing left', async () => {
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-service-'));
    const stage = await startStage(tiny, { runId: 'jest-svc' });
    let cells: ServiceCell[] = [];
    let results: ServiceResults | null = null;
    try {
      results = await measureService(
        stage,
        runDir,
        { replicas: 2, millicores: 500, strategies: ['l4', 'dns-round-robin', 'max-connection-age', 'l7-proxy'].map(findStrategy), rates: [40], security: null, transports: ['http-json', 'grpc'] },
        { stepMs: 3000, warmupMs: 300, drainMs: 3000, deadlineMs: 5000, changeRate: 40, changePhaseMs: 2000, faultRate: 40, faultPhaseMs: 2000 },
        () => undefined,
        () => undefined,
      );
      expect(results.failures).toEqual([]);
      expect(results.replicas.map((r) => r.cpuLimit?.setting)).toEqual(expect.arrayContaining([expect.stringMatching(/cfs_quota_us 50000|cpu\.max 50000 100000/)]));
      cells = results.cells;
      // A replica joined and the oldest left gracefully under every strategy and transport: no call lost;
      // gRPC drains (GOAWAY, calls in flight finish) without a single error.
      expect(results.skipped).toEqual([]);
      expect(results.changes).toHaveLength(8);
      for (const change of results.changes) expect(change.lost).toBe(0);
      for (const change of results.changes.filter((c) => c.transport === 'grpc')) expect(change.errors).toBe(0);
      // Leftovers are checked before the stage comes down: the replicas' namespaces and cgroups exist while it is up.
      expect(leftovers('jest-svc').filter((n) => /-r\d/.test(n)).length).toBeGreaterThanOrEqual(2);
    } finally {
      await stage.stop();
      fs.rmSync(runDir, { recursive: true, force: true });
    }
    const cell = (strategy: string, transport: string) => cells.find((c) => c.strategy === strategy && c.transport === transport)!;
    for (const c of cells) {
      // Every call answered, and every answer counted by exactly one replica: none lost, none invented.
      expect(c.errors).toBe(0);
      expect(c.replicas.reduce((n, r) => n + r.requests, 0)).toBe(c.ok);
      expect(c.replicas.every((r) => r.throttling !== null)).toBe(true);
      expect(c.cpuPer1000CallsMs).toBeGreaterThan(0);
    }
    const l4 = cell('l4', 'grpc').replicas.map((r) => r.requests);
    expect(l4.filter((n) => n > 0)).toHaveLength(1); // one channel = one connection = one DNAT choice
    expect(cell('dns-round-robin', 'grpc').replicas.every((r) => r.requests > 0)).toBe(true); // round_robin: a subchannel per replica
    expect(cell('l7-proxy', 'grpc').replicas.every((r) => r.requests > 0)).toBe(true); // Envoy balances each stream
    expect(cell('l7-proxy', 'http-json').replicas.every((r) => r.requests > 0)).toBe(true); // and each request
    expect(cell('l7-proxy', 'grpc').cpuMs.proxy).toBeGreaterThan(0);
    expect(cell('max-connection-age', 'grpc').errors).toBe(0); // GOAWAY after 1 s, calls finish in the grace
    // The headless name is asked of the cluster DNS: as a pod would, the client's own namespace's search
    // domain first (NXDOMAIN), then the servers'; the strategies that dial an address ask nothing.
    const starts = results!.driverStarts;
    for (const transport of ['grpc', 'http-json']) {
      const dns = starts.find((d) => d.strategy === 'dns-round-robin' && d.transport === transport)!.dns;
      expect(dns.lookups).toBeGreaterThanOrEqual(1);
      expect(dns.nxdomain).toBeGreaterThanOrEqual(1);
      expect(dns.byType.A).toBeGreaterThanOrEqual(2);
    }
    for (const d of starts.filter((s) => s.strategy !== 'dns-round-robin')) expect(d.dns.queries).toBe(0);
    for (const c of cells.filter((c) => c.strategy !== 'dns-round-robin')) expect(c.dns.queries).toBe(0);
    // A client of the headless name reaches a new replica only through a lookup made after it joined
    // (HTTP/1.1: per new connection; grpc-js: when its resolver runs again). Whether one happens in the
    // run depends on which connections the leaving replica held, so only the implication is asserted.
    for (const c of results!.changes.filter((c) => c.strategy === 'dns-round-robin')) {
      if (c.added.firstRequestPhase === 'joined') expect(c.dns.joined.queries).toBeGreaterThan(0);
      if (c.added.firstRequestPhase !== null) expect(c.dns.joined.queries + c.dns.left.queries).toBeGreaterThan(0);
    }
    expect(leftovers('jest-svc')).toEqual([]);
  }, 300_000);

  const startInChild = (runId: string) => {
    const child = spawn(process.execPath, [
      '-e',
      `const n = require(${JSON.stringify(path.join(DIST, 'network/stage/index.js'))});
       const { ReplicaSet } = require(${JSON.stringify(path.join(DIST, 'network/service/index.js'))});
       const b = require(${JSON.stringify(path.join(DIST, 'network/service/index.js'))});
       n.startStage(${JSON.stringify(tiny)}, { runId: '${runId}' }).then((s) => {
         const set = new ReplicaSet(s.topology, s.record().tcp, 500);
         const rs = [set.add(), set.add()];
         b.applyVirtualIp(s.topology, [9090], rs.map((r) => r.address));
         return b.HeadlessService.start(s, rs.map((r) => r.address)).then(async (h) => {
           await h.setEndpoints([...rs.map((r) => r.address), '198.18.4.99']);
           const resolved = require('node:child_process').execFileSync('ip', ['netns', 'exec', s.topology.namespaces.client, 'getent', 'ahostsv4', b.SERVICE_NAME], { encoding: 'utf8' });
           console.log(JSON.stringify({ dnsmasq: h.pid, resolved: [...new Set(resolved.split('\\n').filter(Boolean).map((l) => l.split(/\\s+/)[0]))].sort() }));
           setInterval(() => {}, 1000);
         });
       }).catch((e) => { console.error(e.message); process.exit(1); });`,
    ]);
    return new Promise<{ child: typeof child; dnsmasq: number; resolved: string[] }>((resolve, reject) => {
      readline.createInterface({ input: child.stdout }).once('line', (line) => resolve({ child, ...(JSON.parse(line) as { dnsmasq: number; resolved: string[] }) }));
      child.once('exit', () => reject(new Error('the child exited before its replicas were up')));
    });
  };

  /** Running (a zombie nobody reaped yet has exited). */
  const alive = (pid: number) => {
    try {
      return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  };

  it('Ctrl-C takes replicas, cgroups, rules, the DNS server and its files down with the stage', async () => {
    const { child, dnsmasq, resolved } = await startInChild('jest-svc-int');
    // The name answers with every replica, the one added by a reload (SIGHUP) included.
    expect(resolved).toEqual(['198.18.4.11', '198.18.4.12', '198.18.4.99']);
    expect(alive(dnsmasq)).toBe(true);
    expect(leftovers('jest-svc-int').length).toBeGreaterThanOrEqual(6); // 3 + 2 namespaces, 2 cgroups, /etc/netns (resolv.conf)
    child.kill('SIGINT');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(leftovers('jest-svc-int')).toEqual([]);
    expect(alive(dnsmasq)).toBe(false);
  }, 120_000);

  it('after SIGKILL, the next start removes the replicas, their cgroups, the DNS server and its files', async () => {
    const { child, dnsmasq } = await startInChild('jest-svc-kill');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(leftovers('jest-svc-kill').length).toBeGreaterThanOrEqual(6);
    expect(alive(dnsmasq)).toBe(true); // in the server namespace, outliving its parent
    const report = cleanupLeftovers();
    expect(report.failures).toEqual([]);
    expect(leftovers('jest-svc-kill')).toEqual([]);
    expect(alive(dnsmasq)).toBe(false);
  }, 120_000);
});
