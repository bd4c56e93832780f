// Root-only: builds real stages (namespaces, iptables, the delayer). Skipped, with the reason printed,
// where that cannot work (not root, iptables or ping missing, delayer or bench not built, or a
// network run already holds the lock).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { checkPrerequisites, cleanupLeftovers, startStage, validateProfile, type NetworkProfile } from '../src/network';

const DIST_INDEX = path.resolve(__dirname, '../dist/network/index.js');
/** A test-only record: a few ms each way, no rate or loss, so everything stays quick. */
const tiny: NetworkProfile = validateProfile({ name: 'test-tiny', description: 'test only: 3 ms each way', topology: 'namespaces', oneWayDelayMs: 3, rateMbit: null, loss: 0 });

function skipReason(): string | null {
  if (process.getuid?.() !== 0) return 'not root';
  if (spawnSync('sh', ['-c', 'command -v iptables && command -v ping']).status !== 0) return 'iptables or ping not installed (apt-get install -y iptables iputils-ping ethtool)';
  if (!fs.existsSync(DIST_INDEX)) return 'the bench is not built (npx nx run bench:build)';
  return checkPrerequisites(tiny);
}

const why = skipReason();
if (why) console.log(`network stage tests skipped: ${why}`);
const describeRoot = why ? describe.skip : describe;

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
      expect(Math.abs(calibration.achieved.tcpConnectRttMs.median - 6)).toBeLessThanOrEqual(0.6);
      expect(calibration.stage.tcp.congestionControl).toMatch(/\w/);
      expect(calibration.delayerCpu?.packets).toBeGreaterThan(0);

      // ping from the client namespace, independently of the calibration.
      const ping = spawnSync('ip', ['netns', 'exec', stage.topology.namespaces.client, 'ping', '-n', '-c', '10', '-i', '0.05', stage.hosts.server], { encoding: 'utf8' });
      const rtts = [...ping.stdout.matchAll(/time=([\d.]+) ms/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
      expect(Math.abs(rtts[rtts.length >> 1] - 6) / 6).toBeLessThanOrEqual(0.1);

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
});
