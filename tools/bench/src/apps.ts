import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { DEFAULT_SETTINGS, SETTING_ENV } from '@bench/config';
import type { Pinning } from './pinning';
import { missingMains, type VariantRecord } from './variants';

/** The three apps the bench starts for a variant, each from its production build (run with plain node). */
export const APP_NAMES = ['server-a', 'server-b', 'client'] as const;
export type AppName = (typeof APP_NAMES)[number];

const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;
/** Sets of apps up at once take ports this far apart: set `slot` uses the configured ports + slot × 10. */
const PORT_STRIDE = 10;

/**
 * V8 flags for Node apps that idle between visits. After a few seconds without work V8's memory
 * reducer shrinks the heap (new space included) and old bytecode gets flushed, so a set revisited
 * after ~40 s idle measured gRPC ②-2 at 14–20 ms against 9.6 ms on its first visit, and ②-3 at
 * 202–243 ms against 148; with these flags 10–13 ms against 11.0, and 160–192 against 163. Under the
 * continuous load of a real service (or of the blog's run) neither happens, so the flags keep a set as
 * it was when last used rather than change what is measured.
 */
export const KEEP_WARM_NODE_FLAGS: readonly string[] = Object.freeze(['--no-memory-reducer', '--no-flush-bytecode']);

/** How a set of apps is started, beyond the variant: all optional. */
export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  /** Which of the sets up at once this is (ports + slot × PORT_STRIDE). */
  slot?: number;
  /** Flags for the Node runtime of Node variants (e.g. KEEP_WARM_NODE_FLAGS); ignored for Go. */
  nodeFlags?: readonly string[];
}

// Last resort if the bench itself dies: never leave an app running. One listener for every set of apps
// (a run keeps a dozen sets up at once, more than Node's default of ten listeners per event).
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function killAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => running.forEach((child) => child.exitCode === null && child.kill('SIGKILL')));
}

export interface StartedApps {
  clientUrl: string;
  pids: Record<AppName, number>;
  ports: { client: number; serverA: number; serverB: number };
  /** Stops every app by PID (SIGTERM, then SIGKILL after a grace period). Safe to call twice. */
  stop(): Promise<void>;
}

function port(env: NodeJS.ProcessEnv, key: 'clientPort' | 'serverAPort' | 'serverBPort', slot: number): number {
  const raw = env[SETTING_ENV[key]];
  return (raw ? Number(raw) : DEFAULT_SETTINGS[key]) + slot * PORT_STRIDE;
}

/**
 * Starts server-a, server-b and the client as separate processes on loopback, with the ports from
 * CLIENT_PORT / SERVER_A_PORT / SERVER_B_PORT (or the defaults) + `slot` × PORT_STRIDE, logs in
 * `logDir`, and waits until the client reports both servers healthy. Fails fast, with the app's own
 * message, if one exits early.
 */
export async function startApps(
  workspaceRoot: string,
  logDir: string,
  pinning: Pinning,
  variant: VariantRecord,
  { env = process.env, slot = 0, nodeFlags = [] }: StartOptions = {},
): Promise<StartedApps> {
  const ports = { client: port(env, 'clientPort', slot), serverA: port(env, 'serverAPort', slot), serverB: port(env, 'serverBPort', slot) };
  const host = '127.0.0.1';
  const childEnv: NodeJS.ProcessEnv = {
    ...env,
    ...variant.env,
    HOST: host,
    CLIENT_PORT: String(ports.client),
    SERVER_A_PORT: String(ports.serverA),
    SERVER_B_PORT: String(ports.serverB),
    SERVER_A_URL: `http://${host}:${ports.serverA}`,
    SERVER_B_URL: `${host}:${ports.serverB}`,
  };
  for (const main of missingMains(variant, (file) => fs.existsSync(path.join(workspaceRoot, file)))) {
    throw new Error(`${main} is missing: build the apps first (npx nx run-many -t build), or run npx nx run bench:all`);
  }
  fs.mkdirSync(logDir, { recursive: true });

  const children = new Map<AppName, ChildProcess>();
  const exited = new Map<AppName, string>();
  const stop = async () => {
    await Promise.all([...children.values()].map((child) => stopChild(child)));
    children.forEach((child) => running.delete(child));
  };
  killAllOnExit();

  try {
    for (const name of APP_NAMES) {
      const main = variant.mains[name];
      const log = fs.openSync(path.join(logDir, `${name}.log`), 'a');
      const cores = pinning.cores?.[name];
      const program = variant.runtime === 'node' ? [process.execPath, ...nodeFlags, main] : [path.join(workspaceRoot, main)];
      const [command, ...args] = cores ? ['taskset', '-c', cores, ...program] : program;
      const child = spawn(command, args, { cwd: workspaceRoot, env: childEnv, stdio: ['ignore', log, log] });
      fs.closeSync(log);
      children.set(name, child);
      running.add(child);
      child.on('exit', (code, signal) => exited.set(name, `exited with ${signal ?? `code ${code}`}`));
    }
    const clientUrl = `http://${host}:${ports.client}`;
    await waitUntilReady(`${clientUrl}/health/ready`, () => {
      for (const [name, how] of exited) {
        const log = fs.readFileSync(path.join(logDir, `${name}.log`), 'utf8').trim().split('\n').slice(-5).join('\n');
        return `${name} ${how} before it was ready:\n${log}`;
      }
      return null;
    });
    const pids = Object.fromEntries([...children].map(([name, child]) => [name, child.pid ?? -1])) as Record<AppName, number>;
    return { clientUrl, pids, ports, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitUntilReady(url: string, failure: () => string | null): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    const why = failure();
    if (why) throw new Error(why);
    last = await probe(url);
    if (last === 'ok') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`apps not ready after ${READY_TIMEOUT_MS / 1000} s (${url}: ${last})`);
}

function probe(url: string): Promise<string> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 3000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? 'ok' : `HTTP ${res.statusCode}`));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve(error.message));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
