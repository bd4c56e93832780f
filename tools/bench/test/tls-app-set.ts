import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { freePort, stopProcess, waitFor } from '@bench/testing';
import type { CertificateSet, KeyPair } from '../src/security';

// The built apps (Nest, bare or Go) started as processes under BENCH_SECURITY with a CA the test made
// (the bench's security room): what tls-apps, tls-refusals and secrets specs start.
export const ROOT = path.resolve(__dirname, '../../..');
export const NEST = { 'server-a': 'apps/server-a/dist/main.js', 'server-b': 'apps/server-b/dist/main.js', client: 'apps/client/dist/main.js' };
export const BARE = { 'server-a': 'apps/bare/dist/server-a.js', 'server-b': 'apps/bare/dist/server-b.js', client: 'apps/bare/dist/client.js' };
/** The Go reference's binaries (tools/go-reference/build.sh; the bench's test target builds them). */
export const GO = { 'server-a': 'tools/go-reference/dist/server-a', 'server-b': 'tools/go-reference/dist/server-b', client: 'tools/go-reference/dist/client' };

export type Mains = typeof NEST;
export interface Identity {
  server: KeyPair;
  /** The client's certificate; null: the client has none. */
  client: KeyPair | null;
}

export interface Apps {
  ports: { client: number; serverA: number; serverB: number; serverAH2: number };
  logs: string;
  stop(): Promise<void>;
}

/** Starts `mains` under `mode` with the set's CA, each app's log in a new folder under `parent`. */
export async function startApps(
  certs: CertificateSet,
  parent: string,
  mains: Mains,
  mode: 'tls' | 'mtls',
  identity: Identity,
  variant = 'blog',
  extra: Record<string, string> = {},
): Promise<Apps> {
  const ports = { client: await freePort(), serverA: await freePort(), serverB: await freePort(), serverAH2: await freePort() };
  const logs = fs.mkdtempSync(path.join(parent, 'logs-'));
  const common = {
    ...process.env,
    VARIANT: variant,
    CLIENT_PORT: String(ports.client),
    SERVER_A_PORT: String(ports.serverA),
    SERVER_B_PORT: String(ports.serverB),
    SERVER_A_H2_PORT: String(ports.serverAH2),
    SERVER_A_URL: `https://127.0.0.1:${ports.serverA}`,
    SERVER_A_H2_URL: `https://127.0.0.1:${ports.serverAH2}`,
    SERVER_B_URL: `127.0.0.1:${ports.serverB}`,
    BENCH_SECURITY: mode,
    BENCH_TLS_CA: certs.ca,
    ...extra,
  };
  const own = (pair: KeyPair | null) => (pair ? { BENCH_TLS_CERT: pair.cert, BENCH_TLS_KEY: pair.key } : { BENCH_TLS_CERT: '', BENCH_TLS_KEY: '' });
  const children: ChildProcess[] = [];
  for (const [name, main] of Object.entries(mains)) {
    const log = fs.openSync(path.join(logs, `${name}.log`), 'a');
    const env = { ...common, ...own(name === 'client' ? identity.client : identity.server) };
    const [command, args] = main.endsWith('.js') ? [process.execPath, [main]] : [path.join(ROOT, main), []];
    children.push(spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', log, log] }));
    fs.closeSync(log);
  }
  const stop = async () => void (await Promise.all(children.map((child) => stopProcess(child))));
  try {
    await waitFor('the client answers /health', () => fetch(`http://127.0.0.1:${ports.client}/health`).then((r) => r.ok, () => false), 30_000);
    await waitFor('both servers listen', async () => (await Promise.all([ports.serverA, ports.serverB].map(listening))).every(Boolean), 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { ports, logs, stop };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** What app `name` of the set has logged so far. */
export function appLog(apps: Apps, name: string): string {
  return fs.readFileSync(path.join(apps.logs, `${name}.log`), 'utf8');
}

/** Every file under `dir`, at any depth. */
export function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}

/** The client key of a certificate folder a run made under `tmp` (while it exists: read it to look for its bytes afterwards), or null. */
export function readClientKey(tmp: string): Buffer | null {
  for (const name of fs.readdirSync(tmp).filter((n) => n.startsWith('bench-tls-'))) {
    try {
      const key = fs.readFileSync(path.join(tmp, name, 'client.key'));
      if (key.includes('-----END')) return key;
    } catch {
      // not written yet, or already removed
    }
  }
  return null;
}
