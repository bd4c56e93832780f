// server-a and server-b of the blog variant in one replica: in its namespace, inside its CPU cgroup,
// listening on the replica's own address (the same ports in every replica, as pods of a Deployment).
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PARENT_PIPE_ENV } from '@bench/config';
import type { Replica, ReplicaSet } from '../../network/service';
import { runStageCommand as run } from '../../network/stage';
import { agentLaunch, securityEnv, type SetProfiling, type StartOptions } from '../../run';
import { VARIANTS } from '../../plan';
import { SERVICE_PORTS } from './plan';

const PARENT_PIPE_FD = 3;
const READY_MS = 60_000;
const STOP_MS = 10_000;

/** An app of a replica that ended while nobody was stopping it (killed from outside, crashed, or by a fault). */
export interface AppExit {
  replica: string;
  app: 'server-a' | 'server-b';
  pid: number;
  /** `killed by SIGKILL`, `exited with code 1`. */
  how: string;
  /** Wall-clock time (ISO) and the bench's performance.now() when the bench saw it end. */
  at: string;
  atMs: number;
}

export interface ReplicaApps {
  replica: Replica;
  /** --cpu-profile: its apps' profiler sockets (`<replica>-server-a`, `<replica>-server-b`), or null. */
  profiling: SetProfiling | null;
  pids: { 'server-a': number; 'server-b': number };
  /** Its apps that ended before stop() was called, in the order they ended. */
  exits: AppExit[];
  /** SIGTERM (each app drains: server-b's grpc-js sends GOAWAY and lets calls finish), SIGKILL after STOP_MS. */
  stop(): Promise<void>;
}

/** What the replicas' server-b serves beside gRPC: Nest's microservice transports (their environment: SERVER_B_MICROSERVICES, the brokers' URLs, …) and the ports they listen on. */
export interface ReplicaMicroservices {
  env: Record<string, string>;
  ports: readonly number[];
}

/** A replica's app's name among the profiled processes (--cpu-profile). */
export function replicaProcess(replica: Pick<Replica, 'name'>, app: 'server-a' | 'server-b'): string {
  return `${replica.name}-${app}`;
}

export async function startReplicaApps(
  workspaceRoot: string,
  logDir: string,
  replicas: ReplicaSet,
  replica: Replica,
  maxConnectionAgeMs: number | null,
  security: StartOptions['security'],
  microservices: ReplicaMicroservices,
  profiling: SetProfiling | null = null,
): Promise<ReplicaApps> {
  const blog = VARIANTS.find((v) => v.id === 'blog');
  if (!blog) throw new Error('the blog variant is missing from variants.ts');
  fs.mkdirSync(logDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...blog.env,
    HOST: replica.address,
    SERVER_A_PORT: String(SERVICE_PORTS.http),
    SERVER_A_H2_PORT: String(SERVICE_PORTS.h2),
    SERVER_B_PORT: String(SERVICE_PORTS.grpc),
    MAX_CONNECTION_AGE_MS: String(maxConnectionAgeMs ?? 0),
    [PARENT_PIPE_ENV]: String(PARENT_PIPE_FD),
    // Under TLS the run's CA and the replicas' certificate, by path (libs/config SECURITY_ENV).
    ...securityEnv(security, 'server'),
    ...microservices.env,
  };
  const children: ChildProcess[] = [];
  const exits: AppExit[] = [];
  let stopping = false;
  const start = (name: 'server-a' | 'server-b') => {
    const main = path.join(workspaceRoot, blog.mains[name]);
    if (!fs.existsSync(main)) throw new Error(`${blog.mains[name]} is missing: build the apps first (npx nx run-many -t build)`);
    const log = fs.openSync(path.join(logDir, `${replica.name}-${name}.log`), 'a');
    // --cpu-profile: the agent before the app, on this app's socket (as bench:all's apps: run/apps.ts).
    const profiled = agentLaunch(profiling, replicaProcess(replica, name));
    const [command, ...args] = replicas.wrap(replica, [process.execPath, ...profiled.nodeArgs, main]);
    const child = spawn(command, args, { cwd: workspaceRoot, env: { ...env, ...profiled.env }, stdio: ['ignore', log, log, 'pipe'] });
    fs.closeSync(log);
    children.push(child);
    child.once('exit', (code, signal) => {
      if (!stopping) exits.push({ replica: replica.name, app: name, pid: child.pid ?? -1, how: signal ? `killed by ${signal}` : `exited with code ${code}`, at: new Date().toISOString(), atMs: performance.now() });
    });
    return child.pid ?? -1;
  };
  const stop = () => {
    stopping = true;
    return Promise.all(children.map(stopChild)).then(() => undefined);
  };
  try {
    const pids = { 'server-a': start('server-a'), 'server-b': start('server-b') };
    await waitListening(replica, [SERVICE_PORTS.http, SERVICE_PORTS.grpc, ...microservices.ports], children, path.join(logDir, replica.name));
    return { replica, profiling, pids, exits, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Ready = both ports listening in the replica's namespace (`ss`, read there); fails at once if an app exits. */
async function waitListening(replica: Replica, ports: number[], children: ChildProcess[], logPrefix: string): Promise<void> {
  const deadline = Date.now() + READY_MS;
  while (Date.now() < deadline) {
    const dead = children.find((c) => c.exitCode !== null || c.signalCode !== null);
    if (dead) throw new Error(`replica ${replica.name}: an app exited before it listened (logs: ${logPrefix}-*.log)`);
    const listening = run(['ip', 'netns', 'exec', replica.namespace, 'ss', '-Hltn']);
    if (ports.every((port) => listening.includes(`${replica.address}:${port} `))) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`replica ${replica.name}: not listening on ${ports.join(' and ')} after ${READY_MS / 1000} s (logs: ${logPrefix}-*.log)`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
