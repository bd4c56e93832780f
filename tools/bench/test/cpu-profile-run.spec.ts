// bench:all --cpu-profile as a user runs it (the built bench and apps, a tiny plan): a profile per cell
// and process in the run folder, over the timed calls only, and the summary in every export.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listRuns } from '../src/model/runs';
import type { Cell } from '../src/model/model';
import type { FlameNode } from '../src/model/cpu-profile';
import { decodePprof } from '../src/run/cpu-profile-formats';
import { expectExit, MAIN, runBench } from './run-bench';
import { describeNeeding, missingHere } from './needs';

jest.setTimeout(180_000);

const PROCESSES = ['client', 'server-a', 'server-b'];

function packagesOnStacks(node: FlameNode, into = new Set<string>()): Set<string> {
  into.add(node.package);
  for (const child of node.children ?? []) packagesOnStacks(child, into);
  return into;
}

describeNeeding('bench:all --cpu-profile (built apps, one case)', [fs.existsSync(MAIN) ? null : `${MAIN} (npx nx run-many -t build)`], () => {
  let out: string;
  let runDir: string;
  let doc: { results: Cell[]; settings: { skippedVariants: Record<string, string> } };
  let stderr: string;

  beforeAll(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cpu-profile-'));
    const result = await runBench(['--profile', 'quick', '--cases', '1-2', '--variants', 'blog,go', '--runs', '2', '--warmup', '2', '--cpu-profile', '--out', out]);
    expectExit(result, 0);
    stderr = result.stderr;
    runDir = listRuns(out)[0];
    doc = JSON.parse(fs.readFileSync(path.join(runDir, 'results.json'), 'utf8'));
  });

  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('writes a .cpuprofile per cell and process, over the timed calls only', () => {
    const blog = doc.results.filter((r) => r.variant === 'blog');
    expect(blog.map((r) => r.transport)).toEqual(['json', 'grpc']);
    for (const cell of blog) {
      expect(cell.cpuProfile!.processes.map((p) => p.process).sort()).toEqual(PROCESSES);
      for (const p of cell.cpuProfile!.processes) {
        // Two timed calls profiled: neither the cold call nor the two warm-up calls.
        expect(p).toMatchObject({ format: 'cpuprofile', calls: 2 });
        expect(p.error).toBeUndefined();
        const profile = JSON.parse(fs.readFileSync(path.join(runDir, p.file!), 'utf8'));
        expect(profile.samples.length).toBe(profile.timeDeltas.length);
        expect(profile.samples.length).toBeGreaterThan(0);
      }
      // The server that answered did the work: its profile is busy, and its flame graph's stacks name its
      // transport's packages. Not their self time: over two calls grpc-js's own frames (it hands the encode to
      // protobufjs) may hold no sample, while every protobufjs sample sits under a grpc-js frame.
      const server = cell.cpuProfile!.processes.find((p) => p.process === (cell.transport === 'json' ? 'server-a' : 'server-b'))!;
      expect(server.busyMs).toBeGreaterThan(0);
      if (cell.transport === 'grpc') {
        expect(server.packages.map((p) => p.package)).toContain('protobufjs');
        expect([...packagesOnStacks(server.flame)]).toEqual(expect.arrayContaining(['protobufjs', 'grpc-js']));
      }
    }
  });

  it('writes a pprof per process for the Go reference where it runs', () => {
    if (doc.settings.skippedVariants.go) {
      missingHere('cpu-profile go', [`the Go reference (${doc.settings.skippedVariants.go})`]);
      return;
    }
    for (const cell of doc.results.filter((r) => r.variant === 'go')) {
      for (const p of cell.cpuProfile!.processes) {
        expect(p).toMatchObject({ format: 'pprof', calls: 2 });
        const profile = decodePprof(fs.readFileSync(path.join(runDir, p.file!)));
        // The period is the interval asked for (the kernel's tick), not StartCPUProfile's stated 100 Hz.
        expect(p.intervalUs).toBe(4000);
        expect(profile.period).toBe(4_000_000);
      }
      const server = cell.cpuProfile!.processes.find((p) => p.process === (cell.transport === 'json' ? 'server-a' : 'server-b'))!;
      expect(server.busyMs).toBeGreaterThan(0);
    }
  });

  it('puts the summary in every export and the flame graphs in report.html', () => {
    expect(fs.readFileSync(path.join(runDir, 'results.md'), 'utf8')).toContain('## CPU profiles: who spends the time (per call)');
    const csv = fs.readFileSync(path.join(runDir, 'cpu-profiles.csv'), 'utf8').trim().split('\n');
    expect(csv.filter((l) => l.startsWith('package,loopback,24,plain,blog,①-2,grpc,server-b,2,protobufjs,'))).toHaveLength(1);
    const html = fs.readFileSync(path.join(runDir, 'report.html'), 'utf8');
    expect(html.match(/<svg data-chart="flame"/g)!.length).toBeGreaterThanOrEqual(4);
    expect(html).toContain('<svg data-chart="diff"');
    expect(html).toContain('data-warning="profiled"');
    expect(fs.readFileSync(path.join(runDir, 'results.md'), 'utf8')).toContain('**profiled run (--cpu-profile');
    expect(stderr).toContain('cpu-profiles.csv');
  });
});
