// Root-only: docs/two-hosts.md followed as written, with two network namespaces for the two hosts.
// Run from network/stage/stage.spec.ts, so that it never competes with the other stage tests for the
// stage's lock (jest runs test files in parallel, the tests of one file one after the other).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findProfile, startStage, type Stage } from '../src/network/stage';
import { listRuns } from '../src/model/runs';

const ROOT = path.resolve(__dirname, '../../..');
const DOC = fs.readFileSync(path.join(ROOT, 'docs/two-hosts.md'), 'utf8');
const veth = findProfile('veth');

/** The lines of the doc's code block whose info string names `host` (```sh servers-host). */
function block(host: string): string[] {
  const match = new RegExp('```sh ' + host + '\\n([\\s\\S]*?)```').exec(DOC);
  if (!match) throw new Error(`docs/two-hosts.md has no \`\`\`sh ${host} block`);
  return match[1].trim().split('\n');
}

/** The test (network/stage/stage.spec.ts runs it where stages can be built; it needs curl too). */
export function twoHostsTest(): void {
  it('docs/two-hosts.md, followed in two namespaces: servers on one host, client and bench on the other, labelled and with the path measured', async () => {
    if (spawnSync('sh', ['-c', 'command -v curl']).status !== 0) throw new Error('curl is not installed (apt-get install -y curl): docs/two-hosts.md uses it');
    const stage: Stage = await startStage(veth, { runId: 'jest-two-hosts' });
    const background: ChildProcess[] = [];
    // The bench writes into the repository's results/ as a user's would: the test removes what it adds.
    const resultsDir = path.join(ROOT, 'results');
    const hadResults = fs.existsSync(resultsDir);
    const before = new Set(listRuns(resultsDir));
    const latest = path.join(resultsDir, 'latest');
    const latestBefore = fs.existsSync(latest) ? fs.readlinkSync(latest) : null;
    const run = (host: 'server' | 'client', line: string) => {
      const command = line.replace(/SERVERS_HOST/g, stage.hosts.server);
      if (command.endsWith('&')) {
        // A process group of its own, so the shell and the app it started stop together.
        const [program, ...args] = stage.wrap(host, ['sh', '-c', command.slice(0, -1).trim()]);
        background.push(spawn(program, args, { cwd: ROOT, stdio: 'ignore', detached: true }));
        return null;
      }
      const [program, ...args] = stage.wrap(host, ['timeout', '120', 'sh', '-c', command]);
      return spawnSync(program, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false' } });
    };
    try {
      for (const line of block('servers-host')) run('server', line);
      const results = block('client-host').map((line) => run('client', line));
      for (const result of results) if (result) expect({ status: result.status, stderr: result.stderr.slice(-2000) }).toMatchObject({ status: 0 });
      const runs = listRuns(path.join(ROOT, 'results')).filter((dir) => !before.has(dir));
      expect(runs).toHaveLength(1);
      const doc = JSON.parse(fs.readFileSync(path.join(runs[0], 'results.json'), 'utf8'));
      expect(doc.results.length).toBeGreaterThan(0);
      expect(doc.results.every((r: { ok: boolean; variant: string }) => r.ok && r.variant === 'blog')).toBe(true);
      // The calls crossed from one namespace to the other: the client saw the servers at their own address.
      const measured = doc.provenance.path['loopback/blog'];
      expect(measured.before.serverA.address).toBe(`${stage.hosts.server}:3001`);
      expect(measured.before.serverB.http2PingMs.medianMs).toBeGreaterThan(0);
      expect(doc.provenance.client.settings.serverAUrl).toBe(`http://${stage.hosts.server}:3001`);
      fs.rmSync(runs[0], { recursive: true, force: true });
    } finally {
      const exited = background.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve))));
      for (const child of background) {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      await Promise.all(exited);
      await stage.stop();
      if (!hadResults) fs.rmSync(resultsDir, { recursive: true, force: true });
      else if (latestBefore !== null) {
        fs.rmSync(latest, { force: true });
        fs.symlinkSync(latestBefore, latest);
      }
    }
  }, 240_000);
}
