// Root-only: every process the bench starts ends with it, SIGKILL included (issue #45 item 4;
// cli/lifetime.ts), and the next start removes what the killed run left (run/dead-runs.ts, the stage's and
// the brokers' sweeps). Runs the built bench:service as a user would, on a stage without delay: one
// replica (server-a, server-b) under a CPU limit, the headless name's DNS server (dnsmasq), the Envoy front
// proxy, NATS in the broker namespace and the load driver; SIGKILLs the bench mid-sweep, then starts it again.
// A missing prerequisite fails under CI=true and skips elsewhere, saying why (needs.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { brokerMissing } from '../src/brokers';
import { findProfile } from '../src/network/stage';
import { describeNeeding } from './needs';
import { serviceStageMissing } from './service-stage';

const ROOT = path.resolve(__dirname, '../../..');
const SERVICE = path.join(ROOT, 'tools/bench/dist/suites/service/main.js');
/** How long what the bench started may take to be gone: generous, a defect (a process that never ends) blows past it. */
const GONE_WITHIN_MS = 15_000;
/** The processes the run must have started before it is killed: the DNS server, Envoy, NATS, and node (replicas, driver). */
const AWAITED = ['dnsmasq', 'envoy', 'nats-server'];

interface Seen {
  pid: number;
  start: string;
  name: string;
}

/** A process's program (argv[0]'s file name: Node names its main thread MainThread), start time and parent, or null when it is gone or a zombie. */
function statOf(pid: number): { name: string; start: string; ppid: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return null;
    const argv0 = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
    return { name: argv0 ? path.basename(argv0) : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), start: fields[19], ppid: Number(fields[1]) };
  } catch {
    return null;
  }
}

/** Every process below `root` now (by parent PID). */
function descendants(root: number): Seen[] {
  const all = fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .flatMap((pid) => {
      const s = statOf(pid);
      return s ? [{ pid, ...s }] : [];
    });
  const found: Seen[] = [];
  const below = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (below.has(p.ppid) && !below.has(p.pid)) {
        below.add(p.pid);
        found.push({ pid: p.pid, start: p.start, name: p.name });
        grew = true;
      }
    }
  }
  return found;
}

const alive = (seen: readonly Seen[]) => seen.filter((p) => statOf(p.pid)?.start === p.start);

/** What a run may leave outside its results: namespaces, cgroups, /etc/netns folders, temp folders, broker state. */
function leftovers(): string[] {
  const list = (dir: string, test: RegExp) => {
    try {
      return fs.readdirSync(dir).filter((n) => test.test(n)).map((n) => path.join(dir, n));
    } catch {
      return [];
    }
  };
  const namespaces = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout.split('\n').map((l) => l.split(' ')[0]).filter((n) => n.startsWith('nbx-')).map((n) => `netns ${n}`);
  return [
    ...namespaces,
    ...list('/sys/fs/cgroup', /^(nbx-|bench-life-)/),
    ...list('/sys/fs/cgroup/cpu', /^nbx-/),
    ...list('/sys/fs/cgroup/unified', /^bench-life-/),
    ...list('/sys/fs/cgroup/pids', /^bench-life-/),
    ...list('/etc/netns', /^nbx-/),
    ...list(os.tmpdir(), /^(nbx-[A-Za-z0-9]{6}|nbx-run-brokers-.*|bench-cpu-.*)$/),
    ...list(path.join(os.tmpdir(), 'nbx-brokers'), /\.json$/),
  ];
}

/** Starts bench:service (its output kept for the failure message). */
function service(out: string, args: readonly string[], benches: ChildProcess[]): { bench: ChildProcess; output: () => string } {
  const bench = spawn(process.execPath, [SERVICE, '--network', 'veth', '--replicas', '1', '--cpu-limit', '500m', '--out', out, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  benches.push(bench);
  let text = '';
  bench.stdout!.on('data', (c: Buffer) => (text = (text + c.toString()).slice(-6000)));
  bench.stderr!.on('data', (c: Buffer) => (text = (text + c.toString()).slice(-6000)));
  return { bench, output: () => text };
}

/** Follows the bench's process tree (every 50 ms, so short-lived and daemonized ones are seen too) until `awaited` all run. */
async function watchUntil(bench: ChildProcess, output: () => string): Promise<Seen[]> {
  const seen = new Map<string, Seen>();
  const until = Date.now() + 240_000;
  while (Date.now() < until && bench.exitCode === null) {
    for (const p of descendants(bench.pid!)) seen.set(`${p.pid}/${p.start}`, p);
    const running = alive([...seen.values()]).map((p) => p.name);
    if (AWAITED.every((name) => running.includes(name)) && running.filter((n) => n === 'node').length >= 3) return [...seen.values()];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the bench did not start ${AWAITED.join(', ')} and its node processes (exit ${bench.exitCode}): ${output()}`);
}

async function goneWithin(seen: readonly Seen[], ms: number): Promise<Seen[]> {
  const until = Date.now() + ms;
  while (alive(seen).length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
  return alive(seen);
}

/** `what()` once it is empty, or as it is after `ms`. */
async function settled<T>(what: () => T[], ms: number): Promise<T[]> {
  const until = Date.now() + ms;
  while (what().length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
  return what();
}

const veth = findProfile('veth');

describeNeeding('a bench killed with SIGKILL (root)', [serviceStageMissing(veth), brokerMissing('nats')], () => {
  let out: string;
  let seen: Seen[] = [];
  const benches: ChildProcess[] = [];
  beforeEach(() => (out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lifetime-'))));
  afterEach(() => {
    // Should the test fail, end what is still running rather than leave it for the next test.
    for (const bench of benches.splice(0).filter((b) => b.exitCode === null && b.signalCode === null)) bench.kill('SIGKILL');
    for (const p of alive(seen)) process.kill(p.pid, 'SIGKILL');
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('takes every process it started with it, and the next start removes what it left', async () => {
    const before = new Set(leftovers());
    const killed = service(out, ['--balance', 'l7-proxy,broker', '--transports', 'grpc,nest-nats', '--rates', '20', '--step-ms', '120000', '--warmup-ms', '0', '--change-rate', '0'], benches);
    seen = await watchUntil(killed.bench, killed.output);
    killed.bench.kill('SIGKILL');
    await new Promise((resolve) => killed.bench.once('exit', resolve));
    const survivors = await goneWithin(seen, GONE_WITHIN_MS);
    expect(survivors.map((p) => `${p.pid} ${p.name}`)).toEqual([]);
    expect(seen.map((p) => p.name)).toEqual(expect.arrayContaining([...AWAITED, 'node']));

    // What stayed: the stage's namespaces and the CPU cgroup, its work folder, the brokers' folder and state.
    const left = leftovers().filter((item) => !before.has(item));
    expect(left).toEqual(expect.arrayContaining([expect.stringMatching(/^netns nbx-/), expect.stringMatching(/nbx-run-brokers-/)]));
    const next = service(out, ['--balance', 'l4', '--transports', 'http-json', '--rates', '20', '--step-ms', '500', '--warmup-ms', '0', '--drain-ms', '500', '--change-rate', '0'], benches);
    const code = await new Promise((resolve) => next.bench.once('exit', resolve));
    expect({ code, output: code === 0 ? '' : next.output() }).toEqual({ code: 0, output: '' });
    expect(next.output()).toContain('removed what killed runs left');
    expect(left.filter((item) => leftovers().includes(item))).toEqual([]);
    // The second run's own cgroup goes a moment after it exits (its keeper reads the pipe's end).
    expect(await settled(() => leftovers().filter((item) => !before.has(item)), GONE_WITHIN_MS)).toEqual([]);
  }, 420_000);
});
