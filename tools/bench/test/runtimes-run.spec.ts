import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listRuns } from '../src/model/runs';
import { RUNTIMES, runtimePackage } from '../src/plan/runtimes';
import { expectExit, ROOT, runBench } from './run-bench';

// bench:all --node: one run on two runtimes (Node 22 is fetched from the npm registry into the bench's
// cache the first time, then found there), and a runtime that can be neither found nor fetched.
/** Fetching a Node release (≈ 30 MB) the first time, on a loaded CI machine: generous. */
const RUN_TIMEOUT_MS = 600_000;

describe('bench:all --node', () => {
  let out: string;
  beforeEach(() => (out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-node-'))));
  afterEach(() => fs.rmSync(out, { recursive: true, force: true }));

  it(
    'runs every app of each runtime on that Node, keys and labels every cell by it, and compare pairs cells by runtime',
    async () => {
      const result = await runBench(['--node', '22,24', '--profile', 'quick', '--cases', '1-1,1-2', '--runs', '2', '--out', out]);
      expect(result.stderr).toContain('bench: 8 ok, 0 failed');
      expectExit(result, 0);
      const [runDir] = listRuns(out);
      const doc = JSON.parse(fs.readFileSync(path.join(runDir, 'results.json'), 'utf8'));
      expect(doc.schemaVersion).toBe(3);
      expect(doc.results.map((r: { runtime: string; case: string; transport: string }) => `${r.runtime} ${r.case} ${r.transport}`)).toEqual([
        '22 ①-1 json', '22 ①-1 grpc', '22 ①-2 json', '22 ①-2 grpc',
        '24 ①-1 json', '24 ①-1 grpc', '24 ①-2 json', '24 ①-2 grpc',
      ]);
      // What each app ran on, read from the running processes, not assumed from --node.
      for (const runtime of ['22', '24']) {
        const version = RUNTIMES.find((r) => r.name === runtime)!.version;
        for (const app of ['client', 'server-a', 'server-b']) {
          expect(doc.provenance.runtimes[runtime].apps.blog[app]).toMatchObject({ node: `v${version}`, v8: expect.any(String), openssl: expect.any(String), llhttp: expect.any(String) });
        }
      }
      expect(doc.provenance.runtimes['22'].apps.blog.client.v8).not.toBe(doc.provenance.runtimes['24'].apps.blog.client.v8);
      expect(doc.provenance.clients['blog@node22'].node).toBe(`v${RUNTIMES.find((r) => r.name === '22')!.version}`);
      // Each runtime's apps logged apart.
      expect(fs.existsSync(path.join(runDir, 'logs', 'node22', 'blog', 'client.log'))).toBe(true);
      expect(fs.existsSync(path.join(runDir, 'logs', 'blog', 'client.log'))).toBe(true);

      const csv = fs.readFileSync(path.join(runDir, 'results.csv'), 'utf8').trimEnd().split('\n');
      const node = csv[0].split(',').indexOf('node');
      expect(new Set(csv.slice(1).map((line) => line.split(',')[node]))).toEqual(new Set(['22', '24']));
      const md = fs.readFileSync(path.join(runDir, 'results.md'), 'utf8');
      expect(md).toMatch(/\| variant \| case \| node \| winner \|/);
      expect(md).toMatch(/\| blog \| ①-2 \| Node 22 \| /);
      expect(md).toMatch(/\| blog: case \| Node 22 \| Node 24 \|/);
      expect(md).toMatch(/- runtime Node 22: v22\.\d+\.\d+ \(V8 /);
      expect(fs.readFileSync(path.join(runDir, 'report.html'), 'utf8')).toContain('data-runtime="22"');

      const compare = spawnSync(process.execPath, [path.join(ROOT, 'tools/bench/dist/compare-main.js'), '--base', runDir, '--head', runDir], { cwd: ROOT, encoding: 'utf8' });
      expect(compare.status).toBe(0);
      const rows = compare.stdout.split('\n').filter((l) => /^\| \d+ \| blog \| [①②]/.test(l));
      expect(rows.map((r) => r.split(' | ').slice(0, 4).join(' '))).toEqual([
        '| 22 blog ①-1 json', '| 22 blog ①-1 grpc', '| 22 blog ①-2 json', '| 22 blog ①-2 grpc',
        '| 24 blog ①-1 json', '| 24 blog ①-1 grpc', '| 24 blog ①-2 json', '| 24 blog ①-2 grpc',
      ]);
      // Paired with itself, every cell is 1.00× its twin: no cell was compared across runtimes.
      for (const row of rows) expect(row).toMatch(/ \| 1\.00 ± [\d.]+ times slower \| 1\.000 \| /);
    },
    RUN_TIMEOUT_MS,
  );

  it('fails before any call, naming the package to fetch, when a runtime is neither cached nor fetchable', async () => {
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'node-cache-'));
    try {
      // A registry nobody listens at, and no retries: the fetch fails at once.
      const env = { BENCH_NODE_CACHE: cache, npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' };
      const node22 = RUNTIMES.find((r) => r.name === '22')!;
      const result = await runBench(['--node', '22', '--profile', 'quick', '--out', out], env);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`--node 22: Node ${node22.version} is not in the bench's cache (${path.join(cache, node22.version)})`);
      expect(result.stderr).toContain(`npm package ${runtimePackage(node22)}`);
      expect(result.stderr).not.toContain('starting server-a');
      expect(listRuns(out)).toEqual([]);
      expect(fs.readdirSync(cache)).toEqual([]);
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
  }, 120_000);

  it('runs a suite once per runtime: its own process (the calls) and its servers on that Node, each run in a folder of its own', () => {
    const echo = spawnSync(process.execPath, [path.join(ROOT, 'tools/bench/dist/suites/echo/main.js'), '--profile', 'quick', '--node', '22,24', '--out', out], { cwd: ROOT, encoding: 'utf8' });
    expect(echo.status).toBe(0);
    const docs = fs.readdirSync(out).filter((name) => name.startsWith('echo-')).sort().map((name) => JSON.parse(fs.readFileSync(path.join(out, name, 'results.json'), 'utf8')));
    expect(docs.map((d) => [d.settings.node, d.provenance.bench.node, d.provenance.apps['server-a'].node, d.provenance.apps['server-b'].node])).toEqual(
      ['22', '24'].map((name) => {
        const v = `v${RUNTIMES.find((r) => r.name === name)!.version}`;
        return [name, v, v, v];
      }),
    );
  }, RUN_TIMEOUT_MS);

  it('refuses an unknown runtime as a usage error listing the known ones (exit 2)', async () => {
    const result = await runBench(['--node', '19', '--out', out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--node: unknown Node runtime "19"; known: ${RUNTIMES.map((r) => `${r.name} (${r.version})`).join(', ')}`);
  });
});
