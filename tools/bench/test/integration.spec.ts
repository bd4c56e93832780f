import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '@bench/testing';
import { PORT_STRIDE, startApps } from '../src/run/apps';
import { planPinning } from '../src/run/pinning';
import { listRuns } from '../src/model/runs';
import { VARIANTS } from '../src/plan/variants';
import { defaultRuntime } from '../src/plan/runtimes';
import { tuningsFor } from '@bench/config';
import { missingHere } from './needs';
import { expectExit, type Finished, ROOT, runBench } from './run-bench';

// Runs the built bench (tools/bench/dist) as a user would, against the built apps it starts itself.

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Sets of apps up at once in these tests (the forks test: three slots), each on the given ports + slot × PORT_STRIDE. */
const SLOTS = 3;

/**
 * A given port whose shifted ports are free too: the bench never replaces a port the user gave, so one
 * taken by another project's test running beside this one (nx runs projects in parallel) would fail the run.
 */
async function givenPort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await freePort();
    const shifted = Array.from({ length: SLOTS - 1 }, (_, i) => port + (i + 1) * PORT_STRIDE);
    if (!(await Promise.all(shifted.map(isListening))).some(Boolean)) return port;
  }
  throw new Error('no port found whose shifted ports are free');
}

async function portsEnv(): Promise<NodeJS.ProcessEnv> {
  return { CLIENT_PORT: String(await givenPort()), SERVER_A_PORT: String(await givenPort()), SERVER_B_PORT: String(await givenPort()) };
}

function onlyRunDir(out: string): string {
  const runs = listRuns(out);
  expect(runs).toHaveLength(1);
  return runs[0];
}

describe('bench:all (built apps, quick profile)', () => {
  let out: string;
  beforeEach(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-it-'));
  });
  afterEach(() => fs.rmSync(out, { recursive: true, force: true }));

  it('runs the quick profile, writes results.json and results.md, prints the verdict and stops the apps', async () => {
    const env = await portsEnv();
    const result = await runBench(['--profile', 'quick', '--runs', '2', '--out', out], env);
    expect(result.stderr).toContain('[1/5]');
    expectExit(result, 0);

    const runDir = onlyRunDir(out);
    expect(fs.realpathSync(path.join(out, 'latest'))).toBe(fs.realpathSync(runDir));
    const doc = JSON.parse(fs.readFileSync(path.join(runDir, 'results.json'), 'utf8'));
    expect(doc.incomplete).toBe(false);
    expect(doc.provenance).toMatchObject({ gitCommit: expect.any(String), client: { node: process.version, cpuCount: expect.any(Number) } });
    expect(doc.settings).toMatchObject({ preset: 'quick', runsOverride: 2, transports: ['json', 'grpc'], order: expect.stringContaining('interleaved') });
    expect(doc.provenance.pinning).toMatchObject({ requested: false, pinned: false });
    // Every app ran on the project's pinned Node (the one npm ci brings), read from the running processes.
    const pinned = `v${defaultRuntime().version}`;
    expect(process.version).toBe(pinned);
    for (const app of ['client', 'server-a', 'server-b']) expect(doc.provenance.runtimes['24'].apps.blog[app]).toMatchObject({ node: pinned, v8: process.versions.v8 });
    expect(doc.results.map((r: { runtime: string }) => r.runtime)).toEqual(Array(10).fill('24'));
    // The client measured its own path before the first visit and after the last. Loopback reads ~0.1 ms
    // on an idle machine; under CI's parallel tests a reading can reach a few ms, so this only checks it
    // is a loopback figure (no timing goal in a test).
    const measured = doc.provenance.path['loopback/blog'];
    expect(measured.before.serverA.tcpConnectMs.medianMs).toBeLessThan(50);
    expect(measured.after.serverB.http2PingMs.medianMs).toBeLessThan(50);
    expect(measured.before.serverA.bulk.medianMbit).toBeGreaterThan(100);
    expect(result.stderr).toMatch(/bench: loopback\/blog: client → server-a: RTT \d\.\d+ ms, \d+ Mbit\/s; client → server-b: RTT/);
    expect(doc.results).toHaveLength(10);
    for (const r of doc.results) {
      expect(r).toMatchObject({ ok: true, error: null, samplesMs: [expect.any(Number), expect.any(Number)] });
      expect(r.sampleOrder).toEqual(r.transport === 'json' ? [0, 2] : [1, 3]);
      expect(r.client.cpuUserMs + r.client.cpuSystemMs).toBeGreaterThan(0);
      expect(r.server.peakRssBytes).toBeGreaterThan(10_000_000);
      expect(r.coldMs).toBeGreaterThan(0);
      expect(r.bytes).toBeGreaterThan(0);
      expect(Object.keys(r.summary)).toEqual(expect.arrayContaining(['max', 'mean', 'median', 'min', 'n', 'p95', 'p99', 'stddev', 'cv', 'medianCi', 'outliers', 'noisy']));
    }
    expect(doc.results.map((r: { case: string; transport: string }) => `${r.case}/${r.transport}`)).toEqual([
      '①-1/json', '①-1/grpc', '①-2/json', '①-2/grpc', '②-1/json', '②-1/grpc', '②-2/json', '②-2/grpc', '20k×4/json', '20k×4/grpc',
    ]);

    // The terminal ends with the verdict results.md opens with: a row per case, before the paths on stderr.
    const tableLines = result.stdout.split('\n').filter((line) => line.startsWith('| '));
    expect(tableLines).toHaveLength(1 + 5);
    expect(tableLines[0]).toContain('| winner |');
    const md = fs.readFileSync(path.join(runDir, 'results.md'), 'utf8');
    expect(md).toContain(tableLines[1]);
    expect(fs.readFileSync(path.join(runDir, 'report.html'), 'utf8')).toContain('data-chart="bars"');
    expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toContain(`${path.basename(runDir)}/report.html`);
    const csv = fs.readFileSync(path.join(runDir, 'results.csv'), 'utf8').trimEnd().split('\n');
    expect(csv.filter((line) => line.startsWith('sample,'))).toHaveLength(20);
    expect(csv.filter((line) => line.startsWith('summary,'))).toHaveLength(10);
    // Issue #43: on loopback every cell carries the host's TCP counters, its modes and each visit's disturbance, in all four exports.
    for (const r of doc.results) {
      expect(r.pathCounters.tcp).toMatchObject({ listenOverflows: expect.any(Number), synRetrans: expect.any(Number), retransSegs: expect.any(Number), twRecycled: expect.any(Number) });
      expect(r.disturbance).toEqual([expect.objectContaining({ visit: 1, outsideShare: expect.any(Number), stealShare: expect.any(Number) })]);
    }
    expect(md).toContain('## Modes and kernel TCP counters per cell');
    expect(md).toMatch(/\| ①-1 \| json \| loopback \| (one mode|.+ ms; .+ ms) \| 2 timed calls \(host\) \| \d/);
    expect(md).toMatch(/- disturbance: \**\d+ of 5 visits disturbed/);
    expect(result.stderr).toMatch(/bench: \d+ of 5 visits disturbed/);
    const html = fs.readFileSync(path.join(runDir, 'report.html'), 'utf8');
    expect(html).toContain('data-table="cell-counters"');
    expect(html).toContain('data-warning="disturbed"');
    for (const column of ['tcp_syn_retrans', 'tcp_retrans_segs', 'modes', 'mode_note', 'visits_disturbed', 'outside_cpu_share_max']) expect(csv[0].split(',')).toContain(column);

    expect(doc.settings.forks).toBe(0);
    expect(doc.settings.startedApps.blog).toHaveLength(1);
    for (const pid of Object.values(doc.settings.startedApps.blog[0].pids) as number[]) expect(isAlive(pid)).toBe(false);
    for (const app of ['server-a', 'server-b', 'client']) {
      expect(fs.readFileSync(path.join(runDir, 'logs', 'blog', `${app}.log`), 'utf8')).toContain(`${app}: SIGTERM, shutting down`);
    }
    for (const port of Object.values(env)) expect(await isListening(Number(port))).toBe(false);
  });

  it('runs several variants one after the other, with the phase breakdown and the variant ratios', async () => {
    const env = await portsEnv();
    const result = await runBench(['--variants', 'blog,tuned,bare', '--cases', '1-2,2-2', '--runs', '2', '--forks', '0', '--visits', '1', '--settle-ms', '0', '--out', out], env);
    expect(result.stderr).toContain('[6/6]');
    expectExit(result, 0);
    const runDir = onlyRunDir(out);
    const doc = JSON.parse(fs.readFileSync(path.join(runDir, 'results.json'), 'utf8'));
    expect(doc.results.map((r: { variant: string; case: string; transport: string }) => `${r.variant}/${r.case}/${r.transport}`)).toEqual([
      'blog/①-2/json', 'blog/①-2/grpc', 'blog/②-2/json', 'blog/②-2/grpc',
      'tuned/①-2/json', 'tuned/①-2/grpc', 'tuned/②-2/json', 'tuned/②-2/grpc',
      'bare/①-2/json', 'bare/①-2/grpc', 'bare/②-2/json', 'bare/②-2/grpc',
    ]);
    expect(Object.keys(doc.provenance.clients)).toEqual(['blog', 'tuned', 'bare']);
    for (const variant of ['blog', 'tuned', 'bare']) expect(doc.settings.startedApps[variant]).toMatchObject([{ nodeFlags: [] }]);
    expect(doc.provenance.clients.bare.framework).toBe('none');
    expect(doc.provenance.clients.tuned.tunings.map((t: { id: string }) => t.id)).toEqual(tuningsFor('tuned').map((t) => t.id));
    for (const r of doc.results) {
      expect(r.ok).toBe(true);
      expect(r.phases).toMatchObject({ serverBuildMs: expect.any(Number), serverEncodeMs: expect.any(Number), clientDecodeMs: expect.any(Number) });
      expect(r.phases.serverBuildMs).toBeGreaterThan(0);
    }
    const md = fs.readFileSync(path.join(runDir, 'results.md'), 'utf8');
    expect(md).toContain('## Where the time goes');
    expect(md).toContain('| case | transport | blog median ms | tuned median ms | bare median ms | blog ÷ bare | tuned ÷ blog | tuned ÷ bare |');
    for (const variant of ['blog', 'tuned', 'bare']) {
      expect(fs.readFileSync(path.join(runDir, 'logs', variant, 'client.log'), 'utf8')).toContain('client: SIGTERM, shutting down');
    }
    for (const port of Object.values(env)) expect(await isListening(Number(port))).toBe(false);
  });

  it('splits each case over visits dealt to forks kept up between them, and pools each cell', async () => {
    const env = await portsEnv();
    const result = await runBench(['--cases', '1-1,1-2', '--runs', '5', '--forks', '2', '--visits', '3', '--warmup', '1', '--warmup-ms', '0', '--out', out], env);
    expectExit(result, 0);
    expect(result.stderr).toContain('[6/6] blog ①-2 visit 3/3 fork 1/2');
    const doc = JSON.parse(fs.readFileSync(path.join(onlyRunDir(out), 'results.json'), 'utf8'));
    // Four sets of apps (two forks of two cases) on ports 10 apart; visit 3 went back to fork 1, so ①-1's
    // fork 2 had served its last visit and stopped, and ①-2's fork 2 took its ports.
    const sets = doc.settings.startedApps.blog as { cases: string[]; fork: number; pids: Record<string, number>; ports: Record<string, number> }[];
    expect(sets.map((set) => `${set.cases.join()}#${set.fork}`)).toEqual(['①-1#1', '①-2#1', '①-1#2', '①-2#2']);
    expect(new Set(sets.map((set) => set.pids['server-b'])).size).toBe(4);
    expect(sets.map((set) => set.ports.client - Number(env.CLIENT_PORT))).toEqual([0, 10, 20, 20]);
    // Sets that idle between visits run with V8's heap shrinking and bytecode flushing off.
    for (const set of sets) expect(set).toMatchObject({ nodeFlags: ['--no-memory-reducer', '--no-flush-bytecode'] });
    expect(doc.results.map((r: { case: string; transport: string; runs: number; summary: { n: number } }) => `${r.case}/${r.transport}/${r.runs}/${r.summary.n}`)).toEqual([
      '①-1/json/5/5', '①-1/grpc/5/5', '①-2/json/5/5', '①-2/grpc/5/5',
    ]);
    // Visits 1 and 2 took 2 runs each (positions 0–3, 4–7), visit 3 the last (8–9), transports interleaved in each.
    expect(doc.results[0].sampleOrder).toEqual([0, 2, 4, 6, 8]);
    expect(doc.results[1].sampleOrder).toEqual([1, 3, 5, 7, 9]);
    // Each cell says which set of apps gave which of its samples.
    expect(doc.results[0].visits).toEqual([{ visit: 1, fork: 1, calls: 2 }, { visit: 2, fork: 2, calls: 2 }, { visit: 3, fork: 1, calls: 1 }]);
    // One warm-up call per visit; only each fork's first visit made a cold call (the cell keeps the first).
    expect(doc.results[0].warmupMs).toHaveLength(3);
    expect(doc.results[0].coldMs).toEqual(expect.any(Number));
    expect(doc.settings).toMatchObject({ visits: 3, forks: 2, quietWaits: { visits: 6, notQuiet: expect.any(Number) } });
    for (const set of sets) for (const port of Object.values(set.ports)) expect(await isListening(port)).toBe(false);
  });

  it('runs the Go reference as a variant where Go is present, and skips it with a message where not (under CI=true Go must be present)', async () => {
    const env = await portsEnv();
    const result = await runBench(['--variants', 'go', '--cases', '1-1', '--runs', '2', '--out', out], env);
    expectExit(result, 0);
    const doc = JSON.parse(fs.readFileSync(path.join(onlyRunDir(out), 'results.json'), 'utf8'));
    if (doc.settings.skippedVariants.go) {
      expect(result.stderr).toContain('bench: variant go skipped:');
      expect(doc.results).toEqual([]);
      // The skip itself is the product's behaviour; CI must still see the Go branch run.
      missingHere('integration go', [`the Go reference (${doc.settings.skippedVariants.go}; it needs Go ≥ 1.26 on PATH, from go.dev/dl, and protoc: apt-get install -y protobuf-compiler)`]);
    } else {
      expect(doc.results.map((r: { variant: string; transport: string; ok: boolean }) => `${r.variant}/${r.transport}/${r.ok}`)).toEqual(['go/json/true', 'go/grpc/true']);
      expect(doc.provenance.clients.go.framework).toBe('go');
    }
    for (const port of Object.values(env)) expect(await isListening(Number(port))).toBe(false);
  });

  it('when server-b dies mid-visit: that cell fails naming the process, the set is restarted once, the rest complete, exit 1', async () => {
    const env = await portsEnv();
    let killed = false;
    // Long enough visits (settle time before each call) that the kill lands inside visit 2.
    const args = ['--cases', '1-1,1-2,2-1,2-2', '--runs', '10', '--settle-ms', '100', '--forks', '0', '--visits', '1', '--out', out];
    const result = await runBench(args, env, (stderr) => {
      if (killed || !stderr.includes('[1/4]')) return;
      killed = true;
      const doc = JSON.parse(fs.readFileSync(path.join(listRuns(out)[0], 'results.json'), 'utf8'));
      process.kill(doc.settings.startedApps.blog[0].pids['server-b'], 'SIGKILL');
    });
    expect(killed).toBe(true);
    expect(result.code).toBe(1);
    const doc = JSON.parse(fs.readFileSync(path.join(onlyRunDir(out), 'results.json'), 'utf8'));
    expect(doc.incomplete).toBe(false);
    const cells = doc.results.map((r: { case: string; transport: string; ok: boolean }) => `${r.case}/${r.transport}/${r.ok}`);
    expect(cells).toEqual(['①-1/json/true', '①-1/grpc/true', '①-2/json/true', '①-2/grpc/false', '②-1/json/true', '②-1/grpc/true', '②-2/json/true', '②-2/grpc/true']);
    const failed = doc.results[3];
    expect(failed.failure).toMatchObject({ kind: 'died', process: 'server-b', exit: 'exited with signal SIGKILL', logTail: expect.any(Array) });
    expect(failed.error).toMatch(/server-b \(pid \d+\) exited with signal SIGKILL/);
    expect(doc.settings.restarts).toMatchObject([{ variant: 'blog', set: 'blog', action: 'restarted', cause: { kind: 'died', process: 'server-b' } }]);
    expect(doc.settings.startedApps.blog).toHaveLength(2);
    expect(result.stderr).toMatch(/bench: 1 of 8 cells failed: blog ①-2 grpc \(died: server-b exited with signal SIGKILL\)/);
    for (const set of doc.settings.startedApps.blog) for (const pid of Object.values(set.pids) as number[]) expect(isAlive(pid)).toBe(false);
    for (const port of Object.values(env)) expect(await isListening(Number(port))).toBe(false);
  });

  it('when server-a accepts but never answers: its calls fail by deadline within the recorded bound, the run goes on', async () => {
    const env = await portsEnv();
    let stopped = 0;
    const started = Date.now();
    const args = ['--cases', '1-1,1-2,2-1', '--runs', '2', '--forks', '0', '--visits', '1', '--deadline-ms', '1500', '--out', out];
    const result = await runBench(args, env, (stderr) => {
      if (stopped || !stderr.includes('[1/3]')) return;
      const doc = JSON.parse(fs.readFileSync(path.join(listRuns(out)[0], 'results.json'), 'utf8'));
      stopped = doc.settings.startedApps.blog[0].pids['server-a'];
      process.kill(stopped, 'SIGSTOP'); // the kernel still accepts its connections; nothing answers them
    });
    const wallMs = Date.now() - started;
    expect(stopped).toBeGreaterThan(0);
    expect(result.code).toBe(1);
    const doc = JSON.parse(fs.readFileSync(path.join(onlyRunDir(out), 'results.json'), 'utf8'));
    // The bound is recorded, and printed only when near the estimate (model/estimate.ts).
    expect(wallMs).toBeLessThan(doc.settings.boundMs);
    expect(doc.settings.deadlines.perCaseMs).toEqual({ '①-1': 1500, '①-2': 1500, '②-1': 1500 });
    const byCell = Object.fromEntries(doc.results.map((r: { case: string; transport: string }) => [`${r.case}/${r.transport}`, r]));
    expect(byCell['①-2/json']).toMatchObject({ ok: false, failure: { kind: 'deadline' }, error: expect.stringContaining('DEADLINE_EXCEEDED') });
    expect(byCell['①-2/grpc'].ok).toBe(true);
    // The set stopped answering its readiness check: it was replaced, and the next case ran on new apps.
    expect(doc.settings.restarts).toMatchObject([{ action: 'restarted', cause: { kind: 'not-answering' } }]);
    expect(byCell['②-1/json'].ok).toBe(true);
    expect(isAlive(stopped)).toBe(false);
    for (const port of Object.values(env)) expect(await isListening(Number(port))).toBe(false);
  });

  it('picks free ports from the system: something listening on 3000–3002 costs nothing', async () => {
    const blockers: net.Server[] = [];
    for (const port of [3000, 3001, 3002]) {
      const blocker = net.createServer();
      const listening = await new Promise<boolean>((resolve) => {
        blocker.once('error', () => resolve(false)); // already taken by something else: as good
        blocker.listen(port, '127.0.0.1', () => resolve(true));
      });
      if (listening) blockers.push(blocker);
    }
    try {
      const result = await runBench(['--profile', 'quick', '--runs', '1', '--out', out], {});
      expectExit(result, 0);
      const doc = JSON.parse(fs.readFileSync(path.join(onlyRunDir(out), 'results.json'), 'utf8'));
      expect(doc.results.every((r: { ok: boolean }) => r.ok)).toBe(true);
      const [set] = doc.settings.startedApps.blog;
      expect(set.portsFromOs).toEqual(['client', 'serverA', 'serverB', 'serverAH2', 'serverBTcp']);
      for (const port of Object.values(set.ports) as number[]) {
        expect([3000, 3001, 3002]).not.toContain(port);
        expect(port).toBeLessThan(32_768); // below the ephemeral range: no outgoing connection can hold it
      }
    } finally {
      for (const blocker of blockers) blocker.close();
    }
  });

  it('bench:soak (test-sized), a suite like the others: load on both servers at once, zero errors, RSS figures, its report, apps stopped', async () => {
    const env = await portsEnv();
    const result = await new Promise<Finished>((resolve) => {
      const child = spawn(process.execPath, [path.join(ROOT, 'tools/bench/dist/suites/soak/main.js'), '--profile', 'quick', '--duration-s', '2', '--warmup-s', '1', '--http-concurrency', '20', '--grpc-concurrency', '10', '--out', out], {
        cwd: ROOT,
        env: { ...process.env, ...env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });
    const [dir] = fs.readdirSync(out).filter((name) => /^soak-\d{4}-/.test(name));
    const doc = JSON.parse(fs.readFileSync(path.join(out, dir, 'results.json'), 'utf8'));
    expect(doc).toMatchObject({ suite: 'soak', incomplete: false, settings: { durationS: 2, preset: 'quick' }, provenance: { gitCommit: expect.any(String) } });
    expect(doc.results.loads.map((l: { errors: number }) => l.errors)).toEqual([0, 0]);
    expect(doc.results.loads.every((l: { calls: number }) => l.calls > 100)).toBe(true);
    expect(doc.results.rssWarm['server-a']).toBeGreaterThan(0);
    // 2 s of load: memory growth is not judged, so no errors means exit 0.
    expect(doc.results.verdict).toMatchObject({ errorsOk: true, rssJudged: false });
    expectExit(result, 0);
    for (const file of ['results.md', 'report.html']) expect(fs.existsSync(path.join(out, dir, file))).toBe(true);
    expect(result.stdout).toContain('| server-b (gRPC) | 10 |');
    for (const port of Object.values(env)) expect(await isListening(Number(port))).toBe(false);
  });

  it('on Ctrl-C stops the apps and keeps what was measured, marked incomplete', async () => {
    const env = await portsEnv();
    let sent = false;
    const result = await runBench(['--cases', '1-1,1-3', '--runs', '1', '--out', out], env, (stderr, child) => {
      if (!sent && stderr.includes('[1/2]')) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    expect(result.code).toBe(130);
    const doc = JSON.parse(fs.readFileSync(path.join(onlyRunDir(out), 'results.json'), 'utf8'));
    expect(doc.incomplete).toBe(true);
    expect(doc.results.map((r: { case: string; transport: string }) => `${r.case}/${r.transport}`)).toEqual(['①-1/json', '①-1/grpc']);
    for (const port of Object.values(env)) expect(await isListening(Number(port))).toBe(false);
  });

  it('names the variable when a port the user gave is taken, records every cell as failed with it, and leaves nothing running', async () => {
    const env = await portsEnv();
    const blocker = net.createServer().listen(Number(env.SERVER_A_PORT), '127.0.0.1');
    await new Promise((resolve) => blocker.once('listening', resolve));
    try {
      const result = await runBench(['--profile', 'quick', '--out', out], env);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`port ${env.SERVER_A_PORT} on 127.0.0.1 is already in use`);
      expect(result.stderr).toContain('SERVER_A_PORT');
      const doc = JSON.parse(fs.readFileSync(path.join(onlyRunDir(out), 'results.json'), 'utf8'));
      expect(doc.incomplete).toBe(false);
      expect(doc.results).toHaveLength(10);
      for (const r of doc.results) {
        expect(r).toMatchObject({ ok: false, failure: { kind: 'start', process: 'server-a', exit: 'exited with code 1' } });
        expect(r.failure.logTail.join('\n')).toContain('SERVER_A_PORT');
      }
      // Tried once more (the restart policy), then given up: recorded both times.
      expect(doc.settings.restarts.map((e: { action: string }) => e.action)).toEqual(['restarted', 'failed its remaining visits']);
    } finally {
      blocker.close();
    }
    expect(await isListening(Number(env.CLIENT_PORT))).toBe(false);
    expect(await isListening(Number(env.SERVER_B_PORT))).toBe(false);
  });

  it('labels a --client-url run with the variant the client reports, in every export, and refuses a --variants that names another', async () => {
    const tuned = VARIANTS.find((v) => v.id === 'tuned')!;
    const apps = await startApps(ROOT, path.join(out, 'tuned-apps'), planPinning(false, os.cpus().length, false), tuned);
    try {
      // The apps the bench starts have the run's token; a user driving them must give it (BENCH_TOKEN).
      const noToken = await runBench(['--client-url', apps.clientUrl, '--cases', '1-1', '--runs', '1', '--out', out], {});
      expect(noToken.code).toBe(1);
      expect(noToken.stderr).toContain(`bench: calling ${apps.clientUrl} without a token (BENCH_TOKEN is not set)`);
      expect(noToken.stderr).toContain('HTTP 401');
      const withToken = { BENCH_TOKEN: apps.token };
      const mismatch = await runBench(['--client-url', apps.clientUrl, '--variants', 'blog', '--cases', '1-1', '--runs', '1', '--out', out], withToken);
      expect(mismatch.code).toBe(1);
      expect(mismatch.stderr).toContain(`--variants blog asks for blog, but the client at ${apps.clientUrl} reports variant tuned`);
      expect(listRuns(out)).toEqual([]);

      const result = await runBench(['--client-url', apps.clientUrl, '--cases', '1-1,2-1', '--runs', '2', '--out', out], withToken);
      expectExit(result, 0);
      const runDir = onlyRunDir(out);
      expect(fs.readFileSync(path.join(runDir, 'results.json'), 'utf8')).not.toContain(apps.token);
      const doc = JSON.parse(fs.readFileSync(path.join(runDir, 'results.json'), 'utf8'));
      expect(doc.results.map((r: { variant: string }) => r.variant)).toEqual(['tuned', 'tuned', 'tuned', 'tuned']);
      expect(doc.settings.variants.map((v: { id: string }) => v.id)).toEqual(['tuned']);
      expect(Object.keys(doc.provenance.clients)).toEqual(['tuned']);
      for (const line of fs.readFileSync(path.join(runDir, 'results.md'), 'utf8').split('\n').filter((l) => l.startsWith('| ') && l.includes('①-1'))) {
        expect(line).toMatch(/^\| tuned \|/);
      }
      const [header, ...csv] = fs.readFileSync(path.join(runDir, 'results.csv'), 'utf8').trimEnd().split('\n');
      const variantColumn = header.split(',').indexOf('variant');
      expect(new Set(csv.map((line) => line.split(',')[variantColumn]))).toEqual(new Set(['tuned']));
      const html = fs.readFileSync(path.join(runDir, 'report.html'), 'utf8');
      expect(html).toContain('tuned');
      expect(html).not.toMatch(/>blog</);
      const compare = spawnSync(process.execPath, [path.join(ROOT, 'tools/bench/dist/compare-main.js'), '--base', runDir, '--head', runDir], { cwd: ROOT, encoding: 'utf8' });
      expect(compare.status).toBe(0);
      const rows = compare.stdout.split('\n').filter((l) => /^\| \w+ \| [①②]/.test(l));
      expect(rows).toHaveLength(4);
      for (const row of rows) expect(row).toMatch(/^\| tuned \|/);
    } finally {
      await apps.stop();
    }
  });

  it('refuses a bad option with usage and exit code 2', async () => {
    const result = await runBench(['--cases', 'nope', '--out', out], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown case "nope"');
    expect(result.stderr).toContain('Usage: npx nx run bench:all');
  });
});
