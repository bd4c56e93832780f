// Root-only: builds real stages (namespaces, iptables, the delayer). Where that cannot work (not root,
// iptables or ping missing, delayer or bench not built, or a network run already holds the lock) the
// tests fail under CI=true and are skipped elsewhere, with the reason and what to install (needs.ts).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { allowedRttErrorMs, checkPrerequisites, cleanupLeftovers, delayerCpuBetween, startStage, type NetworkProfile } from '../../../src/network/stage';
import { validateProfile } from '../../../src/network/stage/profile';
import { twoHostsTest } from '../../two-hosts';
import { describeNeeding } from '../../needs';

const DIST_INDEX = path.resolve(__dirname, '../../../dist/network/stage/index.js');
/** A test-only record: a few ms each way, no rate or loss, so everything stays quick. */
const tiny: NetworkProfile = validateProfile({ name: 'test-tiny', description: 'test only: 3 ms each way', topology: 'namespaces', oneWayDelayMs: 3, rateMbit: null, loss: 0 });

/** What the stage needs that this machine lacks, first thing first (the later checks assume the earlier). */
function missingForStage(): string | null {
  if (process.getuid?.() !== 0) return 'root (the stage creates network namespaces and iptables rules: run the tests as root)';
  if (spawnSync('sh', ['-c', 'command -v iptables && command -v ping']).status !== 0) return 'iptables or ping (apt-get install -y iptables iputils-ping ethtool)';
  if (!fs.existsSync(DIST_INDEX)) return 'the built bench (npx nx run bench:build)';
  return checkPrerequisites(tiny);
}

const describeRoot = (name: string, body: () => void) => describeNeeding(name, [missingForStage()], body);

/**
 * A round trip that crossed the stage's delay once: not shorter than the expected RTT less the calibration's
 * own allowance (the delay was applied) and under twice it (not applied twice, no second round trip). How
 * precisely it matches is the calibration's verdict, not a test's fixed bound: under CI's foreign load a
 * connect on the 6-ms stage read 7.98 ms, and a client's path RTT 2.3 ms over its 20-ms ping.
 */
function expectOneRoundTrip(measuredMs: number, expectedMs: number): void {
  expect(measuredMs).toBeGreaterThanOrEqual(expectedMs - allowedRttErrorMs(expectedMs));
  expect(measuredMs).toBeLessThan(2 * expectedMs);
}

const namespaces = () => spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout;
const alive = (pid: number) => fs.existsSync(`/proc/${pid}`) && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
/** What the host's own network looks like: the stage must leave all of it as it was. */
const hostNetwork = () => ['ip -o link', 'ip route', 'ip -o addr', 'iptables -w -S'].map((c) => spawnSync('sh', ['-c', c], { encoding: 'utf8' }).stdout).join('\n');

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return condition();
}

describeRoot('network stage (root)', () => {
  it('builds a stage at the profile RTT, reachable from the host, and leaves nothing behind', async () => {
    const hostBefore = hostNetwork();
    const stage = await startStage(tiny, { runId: 'jest-stage' });
    try {
      expect(namespaces()).toContain('nbx-jest-stage-client');
      const calibration = await stage.calibrate({ rttSamples: 11, pingCount: 10, bulkBytes: 4 * 2 ** 20 });
      expect(JSON.parse(JSON.stringify(calibration))).toEqual(calibration); // plain JSON for results.json
      expectOneRoundTrip(calibration.achieved.tcpConnectRttMs.median, 6);
      expect(calibration.stage.tcp.congestionControl).toMatch(/\w/);
      expect(calibration.delayerCpu?.packets).toBeGreaterThan(0);
      // The servers receive what the delayer releases in a thread of their own, measured apart.
      expect(calibration.stage.receiveThread?.device).toBe(`${stage.topology.namespaces.server}/${stage.topology.interfaces.server}`);
      expect(calibration.stage.receiveThread?.pids.length).toBeGreaterThan(0);
      expect(calibration.delayerCpu?.receiveCpuMs).toBeGreaterThan(0);

      // ping from the client namespace, independently of the calibration.
      const ping = spawnSync('ip', ['netns', 'exec', stage.topology.namespaces.client, 'ping', '-n', '-c', '10', '-i', '0.05', stage.hosts.server], { encoding: 'utf8' });
      const rtts = [...ping.stdout.matchAll(/time=([\d.]+) ms/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
      expectOneRoundTrip(rtts[rtts.length >> 1], 6);

      // An HTTP server in the client namespace, reached from the host through the bridge.
      const server = spawn('ip', ['netns', 'exec', stage.topology.namespaces.client, process.execPath, '-e', `require('http').createServer((q, s) => s.end('hello from the client namespace')).listen(18080, '${stage.hosts.client}', () => console.log('up'))`]);
      await new Promise((resolve) => readline.createInterface({ input: server.stdout }).once('line', resolve));
      const url = await stage.exposeOnHost(stage.hosts.client, 18080);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await (await fetch(url)).text()).toBe('hello from the client namespace');
    } finally {
      const cpu = await stage.stop();
      expect(cpu?.packets).toBeGreaterThan(0);
    }
    expect(namespaces()).not.toContain('nbx-jest-stage');
    expect(hostNetwork()).toBe(hostBefore);
  });

  it('after a run is killed with SIGKILL, the next start removes what it left', async () => {
    const child = spawn(process.execPath, [
      '-e',
      `const n = require(${JSON.stringify(DIST_INDEX)});
       n.startStage(${JSON.stringify(tiny)}, { runId: 'jest-killed' }).then((s) => {
         console.log(JSON.stringify({ delayer: s.record().delayer.pid }));
         setInterval(() => {}, 1000);
       }, (e) => { console.error(e.message); process.exit(1); });`,
    ]);
    const line = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', () => reject(new Error('the child exited before its stage was up')));
    });
    const { delayer } = JSON.parse(line) as { delayer: number };
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // SIGKILL ran no hook: the namespaces are still there; the delayer follows its parent (PDEATHSIG).
    expect(namespaces()).toContain('nbx-jest-killed-router');
    expect(await waitFor(() => !alive(delayer), 3000)).toBe(true);

    const next = await startStage(tiny, { runId: 'jest-next' }); // takes over the stale lock, cleans up
    try {
      expect(namespaces()).not.toContain('nbx-jest-killed');
    } finally {
      await next.stop();
    }
    expect(cleanupLeftovers().removed).toEqual([]);
    expect(namespaces()).not.toContain('nbx-');
  });

  it('bench:network fault breaks the wire of the stage that is up (reset, blackhole) and mends it', async () => {
    const stage = await startStage(tiny, { runId: 'jest-fault' });
    const server = spawn('ip', ['netns', 'exec', stage.topology.namespaces.server, process.execPath, '-e', `require('http').createServer((q, s) => s.end('ok')).listen(18081, '${stage.hosts.server}', () => console.log('up'))`]);
    try {
      await new Promise((resolve) => readline.createInterface({ input: server.stdout }).once('line', resolve));
      // One HTTP request from the client namespace on a new connection: its status, its error code, or timeout
      // (all printed as strings: a number would be coloured where FORCE_COLOR is set, as under nx).
      const request = () =>
        spawnSync('ip', ['netns', 'exec', stage.topology.namespaces.client, process.execPath, '-e',
          `const r = require('http').get({ host: '${stage.hosts.server}', port: 18081, timeout: 1500, agent: false }, (s) => { s.resume(); s.on('end', () => console.log(String(s.statusCode))); });
           r.on('timeout', () => { console.log('timeout'); process.exit(0); }); r.on('error', (e) => console.log(String(e.code)));`], { encoding: 'utf8' }).stdout.trim();
      const fault = (what: string) => spawnSync(process.execPath, [path.resolve(__dirname, '../../../dist/network/main.js'), 'fault', what], { encoding: 'utf8' });
      expect(request()).toBe('200');
      expect(fault('reset')).toMatchObject({ status: 0, stderr: expect.stringContaining('wire fault "reset"') });
      expect(['ECONNREFUSED', 'ECONNRESET']).toContain(request());
      expect(fault('blackhole').status).toBe(0); // replaces the reset
      expect(request()).toBe('timeout');
      expect(fault('clear')).toMatchObject({ status: 0, stderr: expect.stringContaining('removed blackhole') });
      expect(request()).toBe('200');
      expect(fault('flood')).toMatchObject({ status: 2, stderr: expect.stringContaining('fault needs one of reset, blackhole or clear') });
    } finally {
      server.kill();
      await stage.stop();
    }
    expect(namespaces()).not.toContain('nbx-jest-fault');
    const noStage = spawnSync(process.execPath, [path.resolve(__dirname, '../../../dist/network/main.js'), 'fault', 'reset'], { encoding: 'utf8' });
    expect(noStage).toMatchObject({ status: 1, stderr: expect.stringContaining('no network stage is up') });
  });

  // One fault during a run (a reset's effect on calls is tried above, at the stage): each run across a
  // stage is another calibration a loaded CI machine could refuse.
  it('a blackhole in the middle of a run across the stage: the cells after it fail by deadline with the reason, the run ends, nothing left', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-net-'));
    try {
      const args = [path.resolve(__dirname, '../../../dist/main.js'), '--network', 'region', '--cases', '1-1,1-2', '--runs', '2', '--forks', '0', '--visits', '1', '--warmup-ms', '0', '--deadline-ms', '2000', '--out', out];
      const child = spawn(process.execPath, args, { cwd: path.resolve(__dirname, '../../../../..') });
      let stderr = '';
      let broken = false;
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (broken || !stderr.includes('[1/2]')) return;
        broken = true; // after the first case, before the second
        spawnSync(process.execPath, [path.resolve(__dirname, '../../../dist/network/main.js'), 'fault', 'blackhole']);
      });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      // On failure, the run's own account (a refused calibration shows here).
      expect({ broken, code, said: broken && code === 1 ? '' : stderr.slice(-3000) }).toEqual({ broken: true, code: 1, said: '' });
      const [run] = fs.readdirSync(out).filter((name) => /^\d{4}-/.test(name));
      const doc = JSON.parse(fs.readFileSync(path.join(out, run, 'results.json'), 'utf8'));
      // Each cell with its failure, so a mismatch shows what happened instead.
      const cells = doc.results.map((r: { case: string; transport: string; ok: boolean; error: string | null }) => `${r.case}/${r.transport}/${r.ok}${r.ok ? '' : ` (${r.error})`}`);
      expect(cells).toEqual(['①-1/json/true', '①-1/grpc/true', expect.stringMatching(/^①-2\/json\/false /), expect.stringMatching(/^①-2\/grpc\/false /)]);
      // The call's own deadline, or (seen once under CI's load) the bench's bound on the request to the client.
      for (const failed of doc.results.slice(2)) expect(failed).toMatchObject({ failure: { kind: 'deadline' }, error: expect.stringMatching(/DEADLINE_EXCEEDED|no answer from http:\/\/127\.0\.0\.1:\d+\/bench\/run within \d+ s/) });
      expect(stderr).toMatch(/bench: 2 of 4 cells failed/);
      expect(namespaces()).not.toContain('nbx-');
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('bench:all --network region runs a case across the stage: cells keyed by network, calibration in provenance, nothing left', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-net-'));
    try {
      const args = [path.resolve(__dirname, '../../../dist/main.js'), '--network', 'region', '--cases', '1-1,1-2', '--runs', '2', '--forks', '0', '--visits', '1', '--warmup-ms', '0', '--out', out];
      const result = spawnSync(process.execPath, args, { cwd: path.resolve(__dirname, '../../../../..'), encoding: 'utf8', timeout: 100_000 });
      expect(result.stderr).toMatch(/bench: region: client → servers: RTT \d+\.\d+ ms by TCP connect/);
      if (result.status !== 0) throw new Error(`bench:all exited ${result.status}:\n${result.stderr.slice(-3000)}`);
      const [run] = fs.readdirSync(out).filter((name) => /^\d{4}-/.test(name));
      const doc = JSON.parse(fs.readFileSync(path.join(out, run, 'results.json'), 'utf8'));
      expect(doc.results.map((r: { network: string; case: string; transport: string; ok: boolean }) => `${r.network}/${r.case}/${r.transport}/${r.ok}`)).toEqual([
        'region/①-1/json/true', 'region/①-1/grpc/true', 'region/①-2/json/true', 'region/①-2/grpc/true',
      ]);
      const region = doc.provenance.networks.region;
      expect(region.calibration).toMatchObject({ verdict: 'ok', profile: { name: 'region' } });
      expect(region.calibration.achieved.tcpConnectRttMs.median).toBeGreaterThan(15);
      expect(region.delayerCpu).toMatchObject({ cpuMs: expect.any(Number), packets: expect.any(Number) });
      // The calls crossed the stage: a cold call pays at least one round trip of the stage.
      for (const r of doc.results) expect(r.coldMs).toBeGreaterThan(15);
      expect(doc.settings.startedApps.blog[0]).toMatchObject({ network: 'region' });
      // The client's own path measurement sees the stage's round trip once, as the calibration's ping does from
      // its namespace, and a throughput from each server.
      const ping = region.calibration.achieved.pingRttMs.median;
      const seen = doc.provenance.path['region/blog'].before;
      for (const rtt of [seen.serverA.tcpConnectMs.medianMs, seen.serverB.tcpConnectMs.medianMs, seen.serverB.http2PingMs.medianMs]) {
        expectOneRoundTrip(rtt, ping);
      }
      for (const bulk of [seen.serverA.bulk, seen.serverB.bulk]) expect(bulk).toMatchObject({ n: 3, medianMbit: expect.any(Number) });
      expect(result.stderr).toMatch(/region\/blog: client → server-a: RTT \d+\.\d ms, \d+ Mbit\/s; client → server-b: RTT \d+\.\d ms \(HTTP\/2 PING \d+\.\d ms\), \d+ Mbit\/s/);
      expect(fs.readFileSync(path.join(out, run, 'results.md'), 'utf8')).toMatch(/^- network region \(asked 20 ms RTT, 1000 Mbit\/s\): client → servers: RTT/m);
      expect(fs.readFileSync(path.join(out, run, 'report.html'), 'utf8')).toContain('data-network-line');
      expect(namespaces()).not.toContain('nbx-');
      for (const pid of Object.values(doc.settings.startedApps.blog[0].pids) as number[]) expect(alive(pid)).toBe(false);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('bench:latency --network zone,region measures across each stage in turn, a run folder each: every call pays the round trip, the network is recorded', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-net-suite-'));
    try {
      const args = [path.resolve(__dirname, '../../../dist/suites/latency/main.js'), '--profile', 'quick', '--calls', '5', '--network', 'zone,region', '--out', out];
      const attempt = () => spawnSync(process.execPath, args, { cwd: path.resolve(__dirname, '../../../../..'), encoding: 'utf8', timeout: 100_000 });
      const read = () => fs.readdirSync(out).filter((name) => name.startsWith('latency-')).sort().map((run) => ({ run, doc: JSON.parse(fs.readFileSync(path.join(out, run, 'results.json'), 'utf8')) }));
      const verdictOf = (doc: { settings: { network: string }; provenance: { networks?: Record<string, { calibration?: { verdict: string } }> } }) => doc.provenance.networks?.[doc.settings.network]?.calibration?.verdict;
      let result = attempt();
      let runs = read();
      // A stage that refuses its calibration under foreign load (zone's ping 0.46 ms short of its 0.3-ms
      // tolerance once, its throughput 701 of 956 Mbit/s once) is the stage working as meant, and is
      // checked as such below; what the rest is about needs one stage that passed: one more try when none did.
      if (!runs.some(({ doc }) => verdictOf(doc) === 'ok')) {
        fs.rmSync(out, { recursive: true, force: true });
        fs.mkdirSync(out);
        result = attempt();
        runs = read();
      }
      // (zone and region, not veth: a loaded machine can push veth's ≈ 0 ms RTT past its 0.3-ms tolerance.)
      expect(runs.map(({ doc }) => doc.settings.network)).toEqual(['zone', 'region']);
      const passed = runs.filter(({ doc }) => verdictOf(doc) === 'ok');
      if (passed.length === 0) throw new Error(`no stage passed its calibration twice in a row:\n${result.stderr.slice(-3000)}`);
      for (const { doc } of runs.filter(({ doc }) => verdictOf(doc) !== 'ok')) {
        // Refused: the run says so, keeps its folder marked incomplete and fails the command.
        expect(doc.incomplete).toBe(true);
        expect(result.stderr).toContain(`network ${doc.settings.network}: calibration refused`);
        expect(result.status).toBe(1);
      }
      if (passed.length === runs.length && result.status !== 0) throw new Error(`bench:latency exited ${result.status}:\n${result.stderr.slice(-3000)}`);
      for (const { run, doc } of passed) {
        const network = doc.settings.network;
        const ping = doc.provenance.networks[network].calibration.achieved.pingRttMs.median;
        expect(JSON.stringify(doc.settings.cores)).toContain(`${network} network stage`);
        expect(fs.readFileSync(path.join(out, run, 'results.md'), 'utf8')).toContain(`Across the ${network} network stage`);
        // Even a trivial call crosses the stage and back: no call is shorter than the round trip (less a margin for ping's own timing).
        const p50s = JSON.stringify(doc.results).match(/"p50Ms":[0-9.]+/g) ?? [];
        expect(p50s.length).toBeGreaterThan(0);
        for (const p50 of p50s) expect(Number(p50.split(':')[1])).toBeGreaterThan(0.8 * ping);
      }
      expect(namespaces()).not.toContain('nbx-');
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  twoHostsTest();
});

// Arithmetic only: runs everywhere, root or not.
describe("the stage's CPU between two readings", () => {
  const reading = (cpuMs: number, packets: number, receiveCpuMs?: number) => ({ pid: 1, cpuMs, packets, cpuPerPacketUs: null, lateMeanUs: 0, lateMaxUs: 0, overruns: 0, ...(receiveCpuMs === undefined ? {} : { receiveCpuMs }) });
  it("differences the receive thread with the delayer; a thread not started at the first reading had run nothing", () => {
    expect(delayerCpuBetween(reading(10, 100, 4), reading(30, 1100, 9))).toMatchObject({ cpuMs: 20, packets: 1000, cpuPerPacketUs: 20, receiveCpuMs: 5 });
    expect(delayerCpuBetween(reading(10, 100), reading(30, 1100, 9))).toMatchObject({ receiveCpuMs: 9 });
    expect('receiveCpuMs' in delayerCpuBetween(reading(10, 100), reading(30, 1100))).toBe(false);
  });
});
