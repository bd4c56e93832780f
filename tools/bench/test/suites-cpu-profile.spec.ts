/// <reference lib="dom" />
// --cpu-profile on every suite that runs on loopback, as a user runs it (the built suite and apps, tiny
// schedules): a profile per measured unit (the suite's own cell key) and per process it profiles (the
// servers and the suite's own process; serialization's own process alone), over the measured parts
// only, as many calls as the unit measured; the summary in results.json, results.md and
// cpu-profiles.csv; flame graphs in report.html, and one report opened in Chromium. bench:service's
// replicas are network-service.spec.ts' (root).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from '@bench/testing';
import type { Browser } from 'playwright-core';
import type { ProfiledRecord } from '../src/model';
import { describeInChromium, launchChromium, openWatched } from './browser';
import { describeNeeding } from './needs';

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, '../../..');
const DIST = path.resolve(__dirname, '../dist/suites');
const SERVERS = ['bench', 'server-a', 'server-b'];

type Unit = { case: string; transport: string; calls: number };
type Results = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Each suite: its tiny schedule, the processes it profiles, and its units as its results key them (with the calls each measured). */
const SUITES: Record<string, { args: string[]; processes: string[]; units: (results: Results) => Unit[] }> = {
  echo: {
    args: ['--calls', '30', '--rounds', '2', '--warmup', '3', '--stream-opens', '0'],
    processes: SERVERS,
    units: (r) => r.cells.map((c: Results) => ({ case: 'echo 32 B', transport: c.transport, calls: 60 })),
  },
  latency: {
    args: ['--calls', '10', '--rounds', '1', '--warmup', '2'],
    processes: SERVERS,
    units: (r) => r.cells.map((c: Results) => ({ case: 'lookup', transport: c.transport, calls: 10 })),
  },
  pingpong: {
    args: ['--duration-ms', '100', '--warmup-ms', '20'],
    processes: SERVERS,
    units: (r) => r.cells.map((c: Results) => ({ case: c.payload, transport: c.transport, calls: c.calls })),
  },
  load: {
    args: ['--duration-ms', '200', '--warmup-ms', '0'],
    processes: SERVERS,
    units: (r) => r.cells.map((c: Results) => ({ case: `${c.rows} row${c.rows === 1 ? '' : 's'} × ${c.concurrency}`, transport: c.target, calls: c.calls })),
  },
  soak: {
    args: ['--duration-s', '2', '--warmup-s', '1'],
    processes: SERVERS,
    units: (r) => [{ case: 'soak', transport: 'json+grpc', calls: r.loads.reduce((n: number, l: Results) => n + l.calls, 0) }],
  },
  serialization: {
    // Stretches of ≥ 20 ms: a sampling profiler's first stretch in a cold process can miss one of a few ms.
    args: ['--min-sample-ms', '10', '--target-sample-ms', '20', '--samples', '2', '--max-rows', '10'],
    processes: ['bench'],
    units: (r) => r.map((c: Results) => ({ case: `${c.size} ${c.direction}`, transport: c.codec, calls: c.iterations * 2 })),
  },
};

const built = Object.keys(SUITES).find((suite) => !fs.existsSync(path.join(DIST, suite, 'main.js')));

function runSuite(suite: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(DIST, suite, 'main.js'), ...args], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

let out: string;
const folders: Record<string, string> = {};

beforeAll(async () => {
  if (built) return;
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-suite-profiles-'));
  for (const [suite, { args }] of Object.entries(SUITES)) {
    const env = { ...process.env, CLIENT_PORT: String(await freePort()), SERVER_A_PORT: String(await freePort()), SERVER_B_PORT: String(await freePort()) };
    const result = await runSuite(suite, ['--profile', 'quick', '--cpu-profile', '--out', out, ...args], env);
    if (result.code !== 0) throw new Error(`bench:${suite} --cpu-profile exited ${result.code}:\n${result.stderr.slice(-3000)}`);
    folders[suite] = path.join(out, fs.readdirSync(out).find((name) => name.startsWith(`${suite}-`))!);
  }
});
afterAll(() => out && fs.rmSync(out, { recursive: true, force: true }));

const read = (suite: string) => JSON.parse(fs.readFileSync(path.join(folders[suite], 'results.json'), 'utf8')) as { results: Results; settings: { cpuProfile?: { intervalUs: number } }; cpuProfiles?: ProfiledRecord[] };

describeNeeding('--cpu-profile on every suite (built suites and apps, tiny schedules)', [built ? `tools/bench/dist/suites/${built}/main.js (npx nx run-many -t build)` : null], () => {
  it.each(Object.keys(SUITES))('%s: a profile per measured unit and process, as many calls as the unit measured', (suite) => {
    const doc = read(suite);
    const { processes, units } = SUITES[suite];
    expect(doc.settings.cpuProfile).toEqual({ intervalUs: 200 });
    const expected = units(doc.results);
    expect(expected.length).toBeGreaterThan(0);
    expect(doc.cpuProfiles!.map((u) => `${u.case}|${u.transport}`).sort()).toEqual(expected.map((u) => `${u.case}|${u.transport}`).sort());
    let sampled = 0;
    for (const unit of expected) {
      const record = doc.cpuProfiles!.find((u) => u.case === unit.case && u.transport === unit.transport)!;
      expect(record).toMatchObject({ network: 'loopback', security: 'plain', variant: suite === 'serialization' ? 'in-process' : 'blog' });
      expect(record.cpuProfile!.processes.map((p) => p.process).sort()).toEqual(processes);
      for (const p of record.cpuProfile!.processes) {
        expect(p).toMatchObject({ format: 'cpuprofile', calls: unit.calls });
        expect(p.error).toBeUndefined();
        const profile = JSON.parse(fs.readFileSync(path.join(folders[suite], p.file!), 'utf8'));
        expect(profile.samples.length).toBe(profile.timeDeltas.length);
        // A stretch of a few sampling intervals may hold none: the tiny schedule's serialization units last
        // 1.6–48 ms (one in five runs had a 1.6-ms one, its calibration's batch slowed by a pause).
        const lastedUs = profile.endTime - profile.startTime;
        if (lastedUs >= 50 * doc.settings.cpuProfile!.intervalUs) expect(profile.samples.length).toBeGreaterThan(0);
      }
      // The suite's own process made the calls (or ran the codecs): busy in every unit that held samples.
      if (record.cpuProfile!.processes.find((p) => p.process === 'bench')!.busyMs > 0) sampled++;
    }
    expect(sampled).toBeGreaterThanOrEqual(Math.ceil(0.9 * expected.length));
  });

  it.each(Object.keys(SUITES))('%s: the summary in results.md and cpu-profiles.csv, flame graphs in report.html', (suite) => {
    const doc = read(suite);
    const md = fs.readFileSync(path.join(folders[suite], 'results.md'), 'utf8');
    expect(md).toContain('## CPU profiles: who spends the time (per call)');
    expect(md).toContain('**profiled run (--cpu-profile');
    const csv = fs.readFileSync(path.join(folders[suite], 'cpu-profiles.csv'), 'utf8').trim().split('\n');
    // Every process whose profile held a sample (see above) has its packages in the CSV.
    for (const unit of doc.cpuProfiles!) for (const p of unit.cpuProfile!.processes.filter((p) => p.busyMs > 0)) expect(csv.some((l) => l.startsWith(`package,loopback,`) && l.includes(`,${unit.variant},${unit.case},${unit.transport},${p.process},${p.calls},`))).toBe(true);
    const html = fs.readFileSync(path.join(folders[suite], 'report.html'), 'utf8');
    expect(html).toContain('data-warning="profiled"');
    expect(html).toContain('<section id="cpu-profiles"');
    expect(html.match(/<svg data-chart="flame"/g)!.length).toBeGreaterThanOrEqual(doc.cpuProfiles!.filter((u) => u.cpuProfile!.processes.some((p) => p.busyMs > 0)).length);
  });
});

describeInChromium('a suite report with CPU profiles, in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('echo: its flame graphs and diffs render once a unit is opened, with no console error and nothing fetched', async () => {
    if (built) return;
    const { page, errors, requests } = await openWatched(browser, pathToFileURL(path.join(folders.echo, 'report.html')).href);
    const group = page.locator('#cpu-profiles details').first();
    await group.locator('summary').click();
    const flames = group.locator('svg[data-chart="flame"]');
    expect(await flames.count()).toBeGreaterThanOrEqual(4);
    for (const svg of await flames.all()) {
      await expect(svg.isVisible()).resolves.toBe(true);
      expect((await svg.boundingBox())!.width).toBeGreaterThan(200);
      expect(await svg.locator('[data-frame] rect').count()).toBeGreaterThan(1);
    }
    expect(await group.locator('svg[data-chart="diff"]').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    expect(requests.filter((r) => !r.startsWith('file://'))).toEqual([]);
    await page.close();
  });
});
