import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { stopProcess } from '@bench/testing';
import { listRuns } from '../src/model/runs';
import { itNeeding } from './needs';

// Without a Docker engine (deploy/compose/check.sh is the run on a real one, in CI), this starts every
// docker-compose service's own command as a plain process with the environment compose would give it (variables interpolated as compose does,
// container hostnames mapped to 127.0.0.1, compose's own ports), runs each healthcheck command until it
// passes, and lets the bench service drive the composed client. It exercises the compose wiring:
// variable names, ports, health endpoints and the bench's --client-url path.
const ROOT = path.resolve(__dirname, '../../..');

interface Service {
  command: string[];
  cpuset?: string;
  mem_limit?: string;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
}

/** `${NAME:-default}`, `${NAME:?message}` (required: compose stops with the message) and `${NAME}` as compose interpolates them. */
function interpolate(value: string, env: NodeJS.ProcessEnv): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}/g, (_m, name: string, how?: string, text?: string) => {
    if (how === ':?' && !env[name]) throw new Error(`compose: ${text}`);
    return env[name] || (how === ':-' ? text : '') || '';
  });
}

/** Container hostnames resolve to this machine. */
function localize(value: string): string {
  return value.replace(/\b(server-a|server-b|client)(?=:\d)/g, '127.0.0.1');
}

/** A service's environment as compose gives it, interpolated from the shell `docker compose up` runs in. */
function serviceEnv(service: Service, shell: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(service.environment ?? {})) env[key] = localize(interpolate(String(value), shell));
  return env;
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function healthy(service: Service, env: NodeJS.ProcessEnv, tries = 60): Promise<boolean> {
  const [cmd, program, ...args] = service.healthcheck!.test;
  expect(cmd).toBe('CMD');
  for (let i = 0; i < tries; i++) {
    if (spawnSync(program, args, { cwd: ROOT, env, stdio: 'ignore' }).status === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

describe('docker-compose services as plain processes', () => {
  const compose = parse(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
  const children: ChildProcess[] = [];
  let out: string;

  beforeAll(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-compose-'));
  });
  afterAll(async () => {
    await Promise.all(children.map(stopProcess));
    fs.rmSync(out, { recursive: true, force: true });
  });

  /** The token a user sets in the shell that runs compose (docs/docker-compose.md). */
  const token = randomBytes(32).toString('hex');

  it('declares the four services with healthchecks and the bench on the client', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['bench', 'client', 'server-a', 'server-b']);
    for (const name of ['server-a', 'server-b', 'client']) expect(compose.services[name].healthcheck?.test[0]).toBe('CMD');
    expect(compose.services.bench.command).toEqual(expect.arrayContaining(['--client-url', 'http://client:3000']));
  });

  it('gives the control token to the client and the bench only, and requires one from the shell', () => {
    const shell = { ...process.env, BENCH_TOKEN: token };
    const tokens = Object.fromEntries(Object.entries(compose.services).map(([name, service]) => [name, serviceEnv(service, shell).BENCH_TOKEN === token]));
    expect(tokens).toEqual({ 'server-a': false, 'server-b': false, client: true, bench: true });
    const withoutToken = { ...process.env, BENCH_TOKEN: '' };
    expect(() => serviceEnv(compose.services.client, withoutToken)).toThrow(/set BENCH_TOKEN to a random secret/);
  });

  it('fits any machine: cores only when named, a memory limit per container and every Node heap sized from it', () => {
    const shell = { ...process.env, BENCH_TOKEN: token, NODE_OPTIONS: '' };
    for (const [name, service] of Object.entries(compose.services)) {
      // An unset cpuset is "every core", so the defaults run on 2 cores as on 16; a list pins (docs/docker-compose.md).
      expect(interpolate(String(service.cpuset), shell)).toBe('');
      const variable = `${name.replace('-', '_').toUpperCase()}_CPUS`;
      expect(interpolate(String(service.cpuset), { ...shell, [variable]: '0-1' })).toBe('0-1');
      expect(interpolate(String(service.mem_limit), shell)).toMatch(/^\d+g$/);
      // Node's own default in a 6g container is a heap the 1,000,000-row case outgrows.
      expect(serviceEnv(service, shell).NODE_OPTIONS!.trim()).toBe('--max-old-space-size-percentage=70');
    }
    expect(serviceEnv(compose.services.client, { ...shell, NODE_OPTIONS: '--max-semi-space-size=64' }).NODE_OPTIONS).toBe(
      '--max-old-space-size-percentage=70 --max-semi-space-size=64',
    );
  });

  const composeCli = spawnSync('sh', ['-c', 'command -v docker-compose'], { stdio: 'ignore' }).status === 0;
  itNeeding('is refused by docker-compose itself without BENCH_TOKEN, naming it, and valid with one', [composeCli ? null : 'docker-compose (apt-get install -y docker-compose)'], () => {
    const config = (value: string) => spawnSync('docker-compose', ['config', '-q'], { cwd: ROOT, env: { ...process.env, BENCH_TOKEN: value }, encoding: 'utf8' });
    const refused = config('');
    expect({ status: refused.status, stderr: refused.stderr }).toEqual({ status: 1, stderr: expect.stringContaining('set BENCH_TOKEN') });
    expect(config(token).status).toBe(0);
  });

  it('does not start the client on 0.0.0.0 without a token, and says what to set', () => {
    const env = { ...serviceEnv(compose.services.client, { ...process.env, BENCH_TOKEN: token }), BENCH_TOKEN: '' };
    const client = compose.services.client;
    const result = spawnSync(client.command[0], client.command.slice(1), { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 1, stderr: expect.stringContaining('HOST=0.0.0.0 opens the control API') });
    expect(result.stderr).toContain('set BENCH_TOKEN');
  });

  it('starts, becomes healthy and is benchmarked through --client-url, labelled as the apps say, with their path', async () => {
    // As a user would run it: `VARIANT=tuned docker compose up`, then the documented bench command.
    const shell = { ...process.env, VARIANT: 'tuned', BENCH_TOKEN: token };
    for (const port of [3000, 3001, 3002]) {
      if (await isListening(port)) throw new Error(`port ${port} is in use; the compose test needs compose's own ports 3000-3002`);
    }
    for (const name of ['server-a', 'server-b', 'client']) {
      const service = compose.services[name];
      const env = serviceEnv(service, shell);
      const child = spawn(service.command[0], service.command.slice(1), { cwd: ROOT, env, stdio: 'ignore' });
      children.push(child);
      expect(await healthy(service, env)).toBe(true);
    }
    // The composed client's control API answers only with the token.
    expect((await fetch('http://127.0.0.1:3000/bench/info')).status).toBe(401);
    const bench = compose.services.bench;
    const args = bench.command.slice(1).map((arg) => (arg === '/results' ? out : localize(arg)));
    const result = spawnSync(bench.command[0], [...args, '--cases', '1-1', '--runs', '2'], { cwd: ROOT, env: serviceEnv(bench, shell), encoding: 'utf8' });
    // One running client serves every visit: the first makes the cold call, the second only re-warms.
    expect(result.stderr).toContain('sending BENCH_TOKEN from the environment to http://127.0.0.1:3000');
    expect(result.stderr).toContain('[2/2] tuned ①-1 visit 2/2');
    expect(result.status).toBe(0);
    const [runDir] = listRuns(out);
    const doc = JSON.parse(fs.readFileSync(path.join(runDir, 'results.json'), 'utf8'));
    expect(doc.settings.clientUrl).toBe('http://127.0.0.1:3000');
    expect(doc.results.map((r: { ok: boolean; variant: string }) => `${r.variant}/${r.ok}`)).toEqual(['tuned/true', 'tuned/true']);
    // Labelled from the environment the file gives the bench (BENCH_DEPLOYMENT): the Docker bridge, even
    // here where the processes share loopback (the real engine's run: deploy/compose/check-run.js).
    expect(doc.results.map((r: { network: string }) => r.network)).toEqual(['docker-bridge', 'docker-bridge']);
    const measured = doc.provenance.path['docker-bridge/tuned'];
    expect(measured.before.serverA.tcpConnectMs.medianMs).toBeLessThan(50);
    expect(measured.after.serverB.http2PingMs.medianMs).toBeLessThan(50);
    expect(doc.settings).toMatchObject({ forks: 0, visits: 4, visitsPerCase: { '①-1': 2 } });
    // Where the apps ran is what the client and the bench saw of themselves, not "every app on 127.0.0.1".
    expect(doc.provenance.clients.tuned.confinement).toMatchObject({ cpuCount: expect.any(Number), heapLimitBytes: expect.any(Number) });
    expect(doc.provenance.clients.tuned.nodeOptions).toContain('--max-old-space-size-percentage=70');
    const markdown = fs.readFileSync(path.join(runDir, 'results.md'), 'utf8');
    expect(markdown).toContain('apps started by their deployment, not the bench (--client-url http://127.0.0.1:3000): tuned client under docker-compose, CPUs');
    expect(markdown).not.toContain('every app on 127.0.0.1');
    expect(markdown).toMatch(/network docker-bridge: The Docker bridge network docker-compose made .*; RTT client → server-a [\d.]+ ms, client → server-b [\d.]+ ms/);
    const html = fs.readFileSync(path.join(runDir, 'report.html'), 'utf8');
    expect(html).toContain('apps started by their deployment, not the bench');
    expect(html).not.toContain('every app on 127.0.0.1');
  }, 120_000);
});
