// The tool's lifetime (cli/lifetime.ts): which cgroup hierarchies hold its processes, read from /proc as
// data; and, as root, that a process holding its lifetime takes what it started with it when SIGKILLed
// (a daemon that left its parent too), and that the cgroup of one whose keeper was killed as well goes
// at the next start's sweep. Runs the built module in a child process, as a tool would.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { hierarchies, sweepLifetimeGroups } from '../../src/cli';
import { itNeeding } from '../needs';

const BUILT = path.resolve(__dirname, '../../dist/cli/index.js');
/** Generous: a defect (a process nobody kills) blows past it; here it takes well under a second. */
const GONE_WITHIN_MS = 15_000;

function procFiles(cgroup: string, mountinfo: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifetime-proc-'));
  fs.writeFileSync(path.join(dir, 'cgroup'), cgroup);
  fs.writeFileSync(path.join(dir, 'mountinfo'), mountinfo);
  return dir;
}

describe('the hierarchies a tool can hold its processes in', () => {
  it('v2 first, then v1 pids and freezer, each at the cgroup the process runs in', () => {
    const proc = procFiles(
      ['9:name=systemd:/', '8:pids:/ci/job', '6:freezer:/', '1:cpu:/', '0::/ci/job'].join('\n'),
      [
        '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
        '32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu',
        '37 31 0:34 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer',
        '39 31 0:36 / /sys/fs/cgroup/pids rw,relatime shared:9 - cgroup cgroup rw,pids',
        '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
      ].join('\n'),
    );
    expect(hierarchies(proc)).toEqual([
      { version: 'v2', mount: '/sys/fs/cgroup/unified', own: '/sys/fs/cgroup/unified/ci/job' },
      { version: 'v1', mount: '/sys/fs/cgroup/pids', own: '/sys/fs/cgroup/pids/ci/job' },
      { version: 'v1', mount: '/sys/fs/cgroup/freezer', own: '/sys/fs/cgroup/freezer' },
    ]);
    fs.rmSync(proc, { recursive: true });
  });

  it('a mount of a subtree (a container) places the group below its mount point; none mounted: none', () => {
    const proc = procFiles('0::/docker/abc/init\n', '50 40 0:40 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n');
    expect(hierarchies(proc)).toEqual([{ version: 'v2', mount: '/sys/fs/cgroup', own: '/sys/fs/cgroup/init' }]);
    fs.rmSync(proc, { recursive: true });
    expect(hierarchies('/nonexistent')).toEqual([]);
  });
});

/** Running and not a zombie. */
const running = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** A tool: holds its lifetime, starts a sleep and a daemon (setsid, its parent gone), prints what it holds and their PIDs. */
function tool(): Promise<{ child: ChildProcess; hold: { cgroup: string; keeper: number }; pids: number[] }> {
  const script = `
    const { holdLifetime } = require(${JSON.stringify(BUILT)});
    const { spawn, execFileSync } = require('node:child_process');
    const hold = holdLifetime();
    const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
    const daemon = Number(execFileSync('sh', ['-c', 'setsid sleep 600 </dev/null >/dev/null 2>&1 & echo $!'], { encoding: 'utf8' }));
    console.log(JSON.stringify({ hold, pids: [sleeper.pid, daemon] }));
    setInterval(() => undefined, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (line: Buffer) => resolve({ child, ...JSON.parse(line.toString()) }));
    child.once('exit', (code) => reject(new Error(`the tool exited (${code})`)));
  });
}

async function goneWithin(pids: readonly number[], ms: number): Promise<number[]> {
  const until = Date.now() + ms;
  while (pids.some(running) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  return pids.filter(running);
}

const asRoot = process.getuid?.() === 0 ? null : 'not root (a cgroup of its own needs root)';
const built = fs.existsSync(BUILT) ? null : 'the bench is not built: npx nx run bench:build';
const writable = hierarchies().length > 0 ? null : 'no cgroup hierarchy is mounted';

describe('a tool killed with SIGKILL', () => {
  const started: number[] = [];
  afterEach(() => {
    for (const pid of started.splice(0).filter(running)) process.kill(pid, 'SIGKILL');
  });

  itNeeding('takes what it started with it, a daemon that left it too, and its cgroup', [asRoot, built, writable], async () => {
    const { child, hold, pids } = await tool();
    started.push(...pids, hold.keeper);
    expect(pids.filter(running)).toEqual(pids);
    expect(fs.readFileSync(`/proc/${child.pid}/cgroup`, 'utf8')).toContain(path.basename(hold.cgroup));
    child.kill('SIGKILL');
    expect(await goneWithin([...pids, hold.keeper], GONE_WITHIN_MS)).toEqual([]);
    expect(fs.existsSync(hold.cgroup)).toBe(false);
  }, 30_000);

  itNeeding('with its keeper killed too, leaves a cgroup the next start sweeps, and what runs in it', [asRoot, built, writable], async () => {
    const { child, hold, pids } = await tool();
    started.push(...pids);
    process.kill(hold.keeper, 'SIGKILL');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(pids.filter(running)).toEqual(pids);
    const swept = hierarchies().flatMap((h) => sweepLifetimeGroups(h));
    expect(swept).toContain(hold.cgroup);
    expect(await goneWithin(pids, GONE_WITHIN_MS)).toEqual([]);
    expect(fs.existsSync(hold.cgroup)).toBe(false);
  }, 30_000);
});
