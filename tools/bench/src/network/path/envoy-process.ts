// One running Envoy, whatever it is for: the mesh's sidecars (sidecars.ts, path.ts) and bench:service's
// front proxy (../service/front-proxy.ts). It writes the config, starts Envoy in a namespace, waits for
// its admin /ready, and reads back its counters (admin socket) and its CPU (its threads' schedstat).
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { EnvoyCounters } from '../../model';
import { threadsCpuMs } from '../stage';

export function envoyArgv(binary: string, configFile: string, concurrency: number): string[] {
  return [binary, '-c', configFile, '--concurrency', String(concurrency), '--disable-hot-restart', '--log-level', 'warn'];
}

/** GET on Envoy's admin unix socket. */
export function adminGet(socketPath: string, urlPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ socketPath, path: urlPath, timeout: 5000 }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 5 s')));
    request.on('error', reject);
  });
}

/** Sums Envoy's `cluster.<name>.upstream_rq_total` and `upstream_cx_total` (text stats, one `name: value` a line). */
export function parseClusterStats(text: string): { requests: number; upstreamConnections: number } {
  let requests = 0;
  let upstreamConnections = 0;
  for (const line of text.split('\n')) {
    const match = /^cluster\.[^:]+\.(upstream_rq_total|upstream_cx_total): (\d+)$/.exec(line.trim());
    if (!match) continue;
    if (match[1] === 'upstream_rq_total') requests += Number(match[2]);
    else upstreamConnections += Number(match[2]);
  }
  return { requests, upstreamConnections };
}

export class EnvoyProcess {
  private stderr = '';

  private constructor(
    /** What it is for (client, server, front): in its config file's name and in errors. */
    readonly name: string,
    private readonly child: ChildProcess,
    readonly adminSocket: string,
  ) {
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-3000)));
  }

  get pid(): number {
    return this.child.pid!;
  }

  /**
   * Writes `config` (its admin address a unix socket) to workDir/envoy-<name>.json, starts Envoy with
   * `concurrency` workers (argv wrapped into its namespace; `ip netns exec` execs, so the PID is
   * Envoy's) and waits until it is ready.
   */
  static async start(name: string, binary: string, config: object, workDir: string, wrap: (argv: readonly string[]) => string[], concurrency: number): Promise<EnvoyProcess> {
    const configFile = path.join(workDir, `envoy-${name}.json`);
    fs.writeFileSync(configFile, JSON.stringify(config, null, 2));
    const adminSocket = (config as { admin: { address: { pipe: { path: string } } } }).admin.address.pipe.path;
    const [program, ...args] = wrap(envoyArgv(binary, configFile, concurrency));
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const envoy = new EnvoyProcess(name, child, adminSocket);
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the ${name} Envoy exited (${child.signalCode ?? `code ${child.exitCode}`}): ${envoy.lastLog()}`);
      const ready = await adminGet(adminSocket, '/ready').catch(() => null);
      if (ready?.status === 200) return envoy;
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`the ${name} Envoy was not ready within 20 s: ${envoy.lastLog()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private lastLog(): string {
    return this.stderr.trim().split('\n').slice(-5).join(' | ');
  }

  /** Its threads' CPU from /proc/<pid>/task/<tid>/schedstat (ns), as the receive thread's is read. */
  cpuMs(proc = '/proc'): number {
    let tids: number[] = [];
    try {
      tids = fs.readdirSync(`${proc}/${this.pid}/task`).map(Number);
    } catch {
      return 0;
    }
    return threadsCpuMs(tids.map((tid) => `${this.pid}/task/${tid}`), proc);
  }

  async counters(): Promise<EnvoyCounters> {
    const stats = await adminGet(this.adminSocket, '/stats?filter=^cluster\\.');
    if (stats.status !== 200) throw new Error(`the ${this.name} Envoy's stats answered ${stats.status}`);
    return { ...parseClusterStats(stats.body), cpuMs: this.cpuMs() };
  }

  /** SIGTERM, and SIGKILL if it has not exited 5 s later; resolves once it has. */
  stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const force = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      this.child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      this.child.kill('SIGTERM');
    });
  }
}
