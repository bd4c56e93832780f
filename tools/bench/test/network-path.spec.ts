// Root-only: a real stage with the path's real parts (dnsmasq, two Envoys with mTLS). Where a stage cannot
// be built (not root, the bench not built, …) the tests fail under CI=true and are skipped elsewhere, with
// the reason (needs.ts); a missing dnsmasq or an Envoy that cannot be fetched says what to install.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkPrerequisites, startStage, type NetworkProfile, type Stage } from '../src/network/stage';
import { validateProfile } from '../src/network/stage/profile';
import { dnsmasqMissing } from '../src/network/path/cluster-dns';
import { pathCountersBetween } from '../src/model';
import { findPath, startPath } from '../src/network/path/path';
import { runToEnd } from '../src/network/stage/spawn-ready';
import { describeNeeding } from './needs';

const tiny: NetworkProfile = validateProfile({ name: 'test-tiny', description: 'test only: 3 ms each way', topology: 'namespaces', oneWayDelayMs: 3, rateMbit: null, loss: 0 });
const DIST_INDEX = path.resolve(__dirname, '../dist/network/stage/index.js');

function missingForPath(): string | null {
  if (process.getuid?.() !== 0) return 'root (the stage creates network namespaces and iptables rules: run the tests as root)';
  if (!fs.existsSync(DIST_INDEX)) return 'the built bench (npx nx run bench:build)';
  return checkPrerequisites(tiny);
}

const describeRoot = (name: string, body: () => void) => describeNeeding(name, [missingForPath()], body);

const namespaces = () => spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout;
const alive = (pid: number) => fs.existsSync(`/proc/${pid}`) && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));

/** server-a (HTTP/1.1) and server-b (h2c) stand-ins in the server namespace: each says whether a sidecar carried the request. */
async function startServers(stage: Stage, ports: { serverA: number; serverB: number }): Promise<void> {
  const script = `
    const answer = (q, s) => s.end(JSON.stringify({ viaEnvoy: 'x-request-id' in q.headers }));
    require('http').createServer(answer).listen(${ports.serverA}, '${stage.hosts.server}');
    require('http2').createServer(answer).listen(${ports.serverB}, '${stage.hosts.server}', () => console.log('up'));`;
  const { spawnUntilFirstLine } = await import('../src/network/stage/spawn-ready');
  await spawnUntilFirstLine(stage.wrap('server', [process.execPath, '-e', script]));
}

/** From the client namespace: `n` HTTP/1.1 calls, each on a new connection, then `n` HTTP/2 calls on one. */
function callFromClient(stage: Stage, serverAUrl: string, serverBAddress: string, n: number): Promise<string> {
  const script = `
    const http = require('http'), http2 = require('http2');
    const get = () => new Promise((ok, ko) => http.get('${serverAUrl}/', { agent: false }, (r) => { let b = ''; r.on('data', (c) => (b += c)); r.on('end', () => ok(JSON.parse(b))); }).on('error', ko));
    (async () => {
      const out = [];
      for (let i = 0; i < ${n}; i++) out.push(await get());
      const session = http2.connect('http://${serverBAddress}');
      for (let i = 0; i < ${n}; i++) out.push(await new Promise((ok, ko) => { let b = ''; const q = session.request({ ':path': '/' }); q.on('data', (c) => (b += c)); q.on('end', () => ok(JSON.parse(b))); q.on('error', ko); q.end(); }));
      session.close();
      console.log(JSON.stringify(out));
    })().catch((e) => { console.error(e.message); process.exit(1); });`;
  return runToEnd(stage.wrap('client', [process.execPath, '-e', script]), 30_000);
}

const ports = { serverA: 18081, serverB: 18082 };

describe('path tools under CI', () => {
  it('dnsmasq is installed (CI=true), or the message says what to install', () => {
    const missing = dnsmasqMissing();
    if (process.env.CI === 'true') expect(missing).toBeNull();
    else if (missing) expect(missing).toContain('apt-get install -y dnsmasq-base');
  });
});

describeRoot('the path on a stage (root)', () => {
  it('names: every lookup is answered by the DNS server beside the servers, counted there, with a pod’s search list', async () => {
    const stage = await startStage(tiny, { runId: 'jest-names' });
    const etc = `/etc/netns/${stage.topology.namespaces.client}`;
    try {
      await startServers(stage, ports);
      const active = await startPath(stage, { ...findPath('veth+names'), network: tiny }, ports);
      expect(active.serverAUrl).toBe(`http://server-a.servers:${ports.serverA}`);
      expect(fs.readFileSync(`${etc}/resolv.conf`, 'utf8')).toContain('options ndots:5');
      const before = await active.counters();
      const replies = JSON.parse(await callFromClient(stage, active.serverAUrl, active.serverBAddress, 3)) as { viaEnvoy: boolean }[];
      expect(replies).toHaveLength(6);
      const cell = pathCountersBetween(before, await active.counters());
      // 3 new HTTP/1.1 connections, one lookup each, and one for the HTTP/2 session: each tries
      // <name>.client.svc.cluster.local (NXDOMAIN), then <name>.svc.cluster.local, A and AAAA each.
      expect(cell.dns).toEqual({ queries: 16, lookups: 4, nxdomain: 8, byType: { A: 8, AAAA: 8 } });
      expect(active.record().names?.server).toContain('dnsmasq');
      active.stop();
    } finally {
      await stage.stop();
    }
    expect(fs.existsSync(etc)).toBe(false);
    expect(namespaces()).not.toContain('nbx-jest-names');
  });

  it('mesh: calls go through both Envoys (their stats count them, over pooled mTLS connections), their CPU is read, and nothing is left', async () => {
    const stage = await startStage(tiny, { runId: 'jest-mesh' });
    let pids: number[] = [];
    try {
      await startServers(stage, ports);
      const active = await startPath(stage, { ...findPath('veth+mesh'), network: tiny }, ports);
      const record = active.record();
      pids = [record.mesh!.pids.client, record.mesh!.pids.server];
      expect(pids.every(alive)).toBe(true);
      const before = await active.counters();
      const replies = JSON.parse(await callFromClient(stage, active.serverAUrl, active.serverBAddress, 5)) as { viaEnvoy: boolean }[];
      expect(replies.every((r) => r.viaEnvoy)).toBe(true);
      const cell = pathCountersBetween(before, await active.counters());
      expect(cell.envoy!.client.requests).toBe(10);
      expect(cell.envoy!.server.requests).toBe(10);
      // Five new connections from the caller, but the sidecars pool theirs: at most one per worker and service.
      expect(cell.envoy!.client.upstreamConnections).toBeLessThanOrEqual(4);
      expect(cell.envoy!.client.cpuMs + cell.envoy!.server.cpuMs).toBeGreaterThan(0);
      expect(cell.dns).toBeNull();
      expect(fs.readdirSync(stage.workDir).filter((f) => f.startsWith('bench-tls-'))).toHaveLength(1);
      active.stop();
      expect(fs.readdirSync(stage.workDir).filter((f) => f.startsWith('bench-tls-'))).toHaveLength(0);
    } finally {
      await stage.stop();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pids.some(alive)).toBe(false);
    expect(namespaces()).not.toContain('nbx-jest-mesh');
  });
});

describeRoot('bench:latency across a path (root)', () => {
  it('region+names+mesh: per cell the DNS queries the server answered, the sidecars’ requests and CPU, the predicted round trips; nothing left', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-path-suite-'));
    try {
      const args = [path.resolve(__dirname, '../dist/suites/latency/main.js'), '--profile', 'quick', '--calls', '5', '--network', 'region+names+mesh', '--out', out];
      const result = spawnSync(process.execPath, args, { cwd: path.resolve(__dirname, '../../..'), encoding: 'utf8', timeout: 150_000 });
      if (result.status !== 0) throw new Error(`bench:latency exited ${result.status}:\n${result.stderr.slice(-3000)}`);
      const [run] = fs.readdirSync(out).filter((name) => name.startsWith('latency-'));
      const doc = JSON.parse(fs.readFileSync(path.join(out, run, 'results.json'), 'utf8'));
      expect(doc.settings.network).toBe('region+names+mesh');
      const recorded = doc.provenance.networks['region+names+mesh'];
      expect(recorded.calibration.verdict).toBe('ok');
      expect(recorded.path.check.verdict).toBe('ok');
      // The check's own proof that the sidecars pooled: at most one connection per Envoy worker.
      expect(recorded.path.check.meshRequest.upstreamConnections).toBeLessThanOrEqual(recorded.path.check.meshRequest.maxUpstreamConnections);
      const cell = (id: string) => doc.results.cells.find((c: { transport: string }) => c.transport === id);
      // A new connection per call: one lookup (4 queries) per call, counted at the DNS server; kept-alive: none.
      expect(cell('protobuf-new-connection').path.counters.dns).toMatchObject({ lookups: 5, queries: 20 });
      expect(cell('protobuf-keepalive').path.counters.dns.queries).toBe(0);
      // Every timed call went through the sidecars, which kept their pooled connections.
      for (const c of doc.results.cells) {
        expect(c.path.counters.envoy.client.requests).toBe(5);
        expect(c.path.counters.envoy.client.cpuMs + c.path.counters.envoy.server.cpuMs).toBeGreaterThan(0);
      }
      expect(cell('protobuf-new-connection').path.counters.envoy.client.upstreamConnections).toBe(0);
      expect(cell('protobuf-new-connection').predicted.roundTrips).toEqual({ lookup: 2, tcp: 0, request: 1, total: 3 });
      expect(fs.readFileSync(path.join(out, run, 'results.md'), 'utf8')).toContain('DNS queries / call');
      expect(namespaces()).not.toContain('nbx-');
      expect(fs.existsSync('/etc/netns') ? fs.readdirSync('/etc/netns').filter((name) => name.startsWith('nbx-')) : []).toEqual([]);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});

describeRoot('bench:all across a path (root)', () => {
  it('region+names+mesh: cells keyed by the path, each set behind its own sidecars, per cell the DNS queries and the sidecars’ requests and CPU, the path checked; nothing left', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-path-all-'));
    try {
      const args = [path.resolve(__dirname, '../dist/main.js'), '--network', 'region+names+mesh', '--variants', 'blog', '--transports', 'json,grpc,json-h2', '--cases', '1-1', '--runs', '2', '--forks', '0', '--visits', '1', '--warmup-ms', '0', '--out', out];
      const result = spawnSync(process.execPath, args, { cwd: path.resolve(__dirname, '../../..'), encoding: 'utf8', timeout: 150_000 });
      if (result.status !== 0) throw new Error(`bench:all exited ${result.status}:\n${result.stderr.slice(-3000)}`);
      expect(result.stderr).toMatch(/bench: region\+names\+mesh: path check: ok; a lookup [\d.]+ ms \(expected [\d.]+\); a request through the sidecars/);
      const [run] = fs.readdirSync(out).filter((name) => /^\d{4}-/.test(name));
      const doc = JSON.parse(fs.readFileSync(path.join(out, run, 'results.json'), 'utf8'));
      type Cell = { network: string; transport: string; ok: boolean; runs: number; requests: number; pathCounters: { dns: { queries: number }; envoy: { client: { requests: number; upstreamConnections: number; cpuMs: number }; server: { cpuMs: number } }; tcp: Record<string, number> } };
      expect(doc.results.map((r: Cell) => `${r.network}/${r.transport}/${r.ok}`)).toEqual(['region+names+mesh/json/true', 'region+names+mesh/grpc/true', 'region+names+mesh/json-h2/true']);
      const recorded = doc.provenance.networks['region+names+mesh'];
      expect(recorded.calibration.verdict).toBe('ok');
      expect(recorded.path).toMatchObject({ features: ['names', 'mesh'], check: { verdict: 'ok' }, mesh: { envoy: expect.any(String), http2: { initialStreamWindowSize: 268435456 } } });
      // The set's own sidecars: a route per server port, json-h2's included; its check recorded with it.
      const set = doc.settings.startedApps.blog[0];
      expect(set.path.mesh.routes.map((r: { appPort: number }) => r.appPort)).toEqual([set.ports.serverA, set.ports.serverB, set.ports.serverAH2]);
      expect(set.path.check.verdict).toBe('ok');
      for (const cell of doc.results as Cell[]) {
        // Every timed call went through the caller's sidecar: its request and the client's two reads of the servers' CPU.
        expect(cell.pathCounters.envoy.client.requests).toBe(cell.runs * (cell.requests + 2));
        expect(cell.pathCounters.envoy.client.cpuMs + cell.pathCounters.envoy.server.cpuMs).toBeGreaterThan(0);
        expect(cell.pathCounters.dns.queries).toEqual(expect.any(Number));
        // The server namespace's TCP counters, read around the same calls (a warm ①-1 overflows no listen queue).
        expect(cell.pathCounters.tcp).toMatchObject({ listenOverflows: 0, syncookiesFailed: 0, outRsts: expect.any(Number) });
      }
      // HTTP/1.1 on kept-alive connections: no lookup during the timed calls.
      expect(doc.results[0].pathCounters.dns.queries).toBe(0);
      expect(fs.readFileSync(path.join(out, run, 'results.md'), 'utf8')).toMatch(/^- network region\+names\+mesh \(asked 20 ms RTT[^\n]*path check ok: a lookup/m);
      expect(fs.readFileSync(path.join(out, run, 'results.md'), 'utf8')).toContain('## The production path per cell');
      expect(fs.readFileSync(path.join(out, run, 'results.csv'), 'utf8').split('\n')[0]).toContain('dns_queries,dns_lookups,sidecar_requests');
      // Nothing left: namespaces, the resolver file, the sidecars, the apps.
      expect(namespaces()).not.toContain('nbx-');
      expect(fs.existsSync('/etc/netns') ? fs.readdirSync('/etc/netns').filter((name) => name.startsWith('nbx-')) : []).toEqual([]);
      for (const pid of [set.path.mesh.pids.client, set.path.mesh.pids.server, ...Object.values(set.pids)] as number[]) expect(alive(pid)).toBe(false);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
