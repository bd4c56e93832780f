import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { CONTROL_TOKEN_ENV, freePort, MICROSERVICE_ENV, PARENT_PIPE_ENV, SECURITY_ENV, SETTING_ENV } from '@bench/config';
import { runToken } from './control-token';
import { APP_NAMES, type AppName, START_BOUND_MS, STOP_BOUND_MS, missingMains, type VariantRecord } from '../plan';
import type { Failure, PathCost, PathCounters, Pinning, TcpCounters } from '../model';
import { errorText } from '../cli';
import type { CertificateSet } from '../security';
import { agentLaunch, type SetProfiling } from './cpu-profiles';

/** Where explicit ports are given (CLIENT_PORT, …), sets up at once take them this far apart: + slot × 10. */
export const PORT_STRIDE = 10;
/** Lines of an app's log quoted when it fails. */
const LOG_TAIL_LINES = 5;

/**
 * V8 flags for Node apps that idle between visits. After a few seconds without work V8's memory
 * reducer shrinks the heap (new space included) and old bytecode gets flushed, so a set revisited
 * after ~40 s idle measured gRPC ②-2 at 14–20 ms against 9.6 ms on its first visit, and ②-3 at
 * 202–243 ms against 148; with these flags 10–13 ms against 11.0, and 160–192 against 163. Under the
 * continuous load of a real service (or of the blog's run) neither happens, so the flags keep a set as
 * it was when last used rather than change what is measured.
 */
export const KEEP_WARM_NODE_FLAGS: readonly string[] = Object.freeze(['--no-memory-reducer', '--no-flush-bytecode']);

/**
 * Where the apps run when they are not all on 127.0.0.1: the network stage (network/stage/stage.ts) puts the
 * client in one namespace and both servers in another, and bridges the client's port to this host.
 */
export interface Placement {
  /** The address each side listens on and is called at. */
  hosts: { client: string; server: string };
  /** argv run inside that side's namespace. */
  wrap(host: 'client' | 'server', argv: readonly string[]): string[];
  /** A URL on this host that reaches the client's address and port. */
  exposeOnHost(clientAddress: string, port: number): Promise<string>;
  /** The path's own cost so far (the network stage's delayer: its CPU and packets), when it has one. */
  delayerCpu?(): Promise<PathCost | null>;
  /** The server namespace's kernel TCP counters so far (listen queue, SYN cookies, resets), on a stage. */
  tcpCounters?(): Promise<TcpCounters>;
  /** A path profile's parts (names, sidecars; issue #34): each set of apps gets its part before it starts. */
  path?: { start(ports: AppPorts, slot: number): Promise<SetPath> };
}

/** A set of apps' part of a path profile: what its client dials, its check, its counters. */
export interface SetPath {
  /** The hosts the client dials server-a and server-b at (the service names with names; else the servers' address). */
  dial: { serverA: string; serverB: string };
  /** Once the apps are up: checks the path they take (throws when refused). */
  check(): Promise<void>;
  /** The DNS server's and the set's sidecars' running totals. */
  counters(): Promise<PathCounters>;
  /** The set's part as built and checked (settings.startedApps[].path). */
  record(): unknown;
  /** Stops the set's sidecars and their capture (the stage's names stay). */
  stop(): void;
}

/** How a set of apps is started, beyond the variant: all optional. */
export interface StartOptions {
  /** Default: every app on 127.0.0.1 in this namespace. */
  placement?: Placement;
  env?: NodeJS.ProcessEnv;
  /** Which of the sets up at once this is (ports + slot × PORT_STRIDE). */
  slot?: number;
  /** Flags for the Node runtime of Node variants (e.g. KEEP_WARM_NODE_FLAGS); ignored for Go. */
  nodeFlags?: readonly string[];
  /** The `node` every Node app of the set runs on (--node, node-binaries.ts); default the one running the bench. */
  nodeBinary?: string;
  /** TLS between the apps (--security): the mode and the run's certificates for these servers; absent: plain. */
  security?: { mode: string; certificates: CertificateSet };
  /** Nest's microservice transports server-b connects beside gRPC (SERVER_B_MICROSERVICES): the run's nest-* transports; default none. */
  microservices?: readonly string[];
  /** The brokers' URLs by variable (REDIS_URL, NATS_URL, …: libs/config BROKER_URL_ENV) for the run's broker transports. */
  brokerEnv?: Readonly<Record<string, string>>;
  /** --cpu-profile: each app's profiler socket, and the agent Node apps load (cpu-profiles.ts); absent: no profiler. */
  profiling?: SetProfiling;
}

/**
 * The descriptor of the pipe each app watches (libs/config exitWithParent): stdio's fourth entry. A
 * SIGKILLed bench runs no exit hook, but the kernel closes its end of every pipe, so its apps see the
 * end and exit instead of holding ports, CPU and memory for the next run to measure against.
 */
const PARENT_PIPE_FD = 3;

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
  /** The client's control token (BENCH_TOKEN), for every call to its control API. */
  token: string;
  pids: Record<AppName, number>;
  ports: AppPorts;
  /** Which ports the operating system picked (the others came from CLIENT_PORT, SERVER_A_PORT, SERVER_B_PORT, SERVER_A_H2_PORT, SERVER_B_TCP_PORT). */
  portsFromOs: (keyof AppPorts)[];
  /** Starts it took: more than 1 when a picked port was taken before the app could listen on it. */
  portAttempts: number;
  /** The first of its apps that has exited since the start, as a failure naming it; null while all run. */
  death(): Failure | null;
  /** Stops every app by PID (SIGTERM, then SIGKILL after a grace period), then its part of the path. Safe to call twice. */
  stop(): Promise<void>;
  /** Its part of a path profile (placement.path), or null. */
  path: SetPath | null;
  /** Its apps' profiler sockets (--cpu-profile), or null. */
  profiling: SetProfiling | null;
}

export interface AppPorts {
  client: number;
  serverA: number;
  serverB: number;
  /** server-a's HTTP/2 cleartext listener (transport json-h2); the Nest server-a listens on it, bare and Go do not. */
  serverAH2: number;
  /** server-b's Nest TCP listener (transport nest-tcp); it listens only when the run has nest-tcp. */
  serverBTcp: number;
}

/** The variable that sets each port. */
const PORT_ENV: Readonly<Record<keyof AppPorts, string>> = {
  client: SETTING_ENV.clientPort,
  serverA: SETTING_ENV.serverAPort,
  serverB: SETTING_ENV.serverBPort,
  serverAH2: SETTING_ENV.serverAH2Port,
  serverBTcp: MICROSERVICE_ENV.tcpPort,
};

/** Ports nothing listens on now, all distinct, from below the ephemeral range (libs/config freePort says why). */
export async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  // One at a time: freePort never hands out the same port twice in a process.
  for (let i = 0; i < count; i++) ports.push(await freePort());
  return ports;
}

/**
 * Each app's port: the one its variable gives (+ slot × PORT_STRIDE, so sets up at once never share),
 * or else a free one below the ephemeral range. Fixed default ports would make any other program on
 * 3000–3002 (a dev server) abort the run; a port taken between this choice and the app's listen is
 * the caller's to retry (the app exits saying "already in use").
 */
export async function choosePorts(env: NodeJS.ProcessEnv, slot: number): Promise<{ ports: AppPorts; fromOs: (keyof AppPorts)[] }> {
  const keys = Object.keys(PORT_ENV) as (keyof AppPorts)[];
  const given = (key: keyof AppPorts) => env[PORT_ENV[key]]?.trim();
  const fromOs = keys.filter((key) => !given(key));
  const picked = await freePorts(fromOs.length);
  const ports = Object.fromEntries(
    keys.map((key) => [key, given(key) ? Number(given(key)) + slot * PORT_STRIDE : picked[fromOs.indexOf(key)]]),
  ) as unknown as AppPorts;
  return { ports, fromOs };
}

function logTail(logDir: string, name: AppName): string[] {
  try {
    return fs.readFileSync(path.join(logDir, `${name}.log`), 'utf8').trim().split('\n').slice(-LOG_TAIL_LINES);
  } catch {
    return [];
  }
}

/**
 * Starts server-a, server-b and the client as separate processes on loopback, with the ports from
 * CLIENT_PORT / SERVER_A_PORT / SERVER_B_PORT (+ `slot` × PORT_STRIDE) or free ones from the operating
 * system, logs in `logDir`, and waits until the client reports both servers healthy. Fails fast, with
 * the app's own message, if one exits early.
 */
export async function startApps(
  workspaceRoot: string,
  logDir: string,
  pinning: Pinning,
  variant: VariantRecord,
  options: StartOptions = {},
): Promise<StartedApps> {
  for (let attempt = 1; ; attempt++) {
    const { ports, fromOs } = await choosePorts(options.env ?? process.env, options.slot ?? 0);
    try {
      return { ...(await startOnce(workspaceRoot, logDir, pinning, variant, options, ports)), portsFromOs: fromOs, portAttempts: attempt };
    } catch (error) {
      // Another program took a port the OS had just called free: pick again. A port the user gave is theirs to free.
      const clash = error instanceof Error && /already in use/.test(error.message);
      const osPortTaken = fromOs.some((key) => errorText(error).includes(`port ${ports[key]} `));
      if (!clash || !osPortTaken || attempt >= PORT_ATTEMPTS) throw error;
      process.stderr.write(`bench: a port the system had just called free was taken (${errorText(error).split('\n')[0]}); picking others\n`);
    }
  }
}

/** Times a set of apps is started on newly picked ports when one of them was taken in between. */
const PORT_ATTEMPTS = 3;

async function startOnce(
  workspaceRoot: string,
  logDir: string,
  pinning: Pinning,
  variant: VariantRecord,
  { env = process.env, nodeFlags = [], placement, nodeBinary = process.execPath, security, slot = 0, microservices = [], brokerEnv = {}, profiling }: StartOptions,
  ports: AppPorts,
): Promise<Omit<StartedApps, 'portsFromOs' | 'portAttempts'>> {
  const hosts = placement?.hosts ?? { client: '127.0.0.1', server: '127.0.0.1' };
  // A path profile's part comes first: the client's connections must be captured before it makes its first.
  const setPath = placement?.path ? await placement.path.start(ports, slot) : null;
  const dial = setPath?.dial ?? { serverA: hosts.server, serverB: hosts.server };
  // Each set its own namespace of patterns and queues: sets up at once share a broker, never their calls.
  const nest = { [MICROSERVICE_ENV.serve]: microservices.join(','), [MICROSERVICE_ENV.namespace]: microserviceNamespace(slot), ...brokerEnv };
  // An app without a socket of its own (a suite's idle client) runs unprofiled.
  const envFor = (name: AppName): NodeJS.ProcessEnv => appEnv(name, { ...env, ...variant.env, ...nest, ...agentLaunch(profiling, name).env }, hosts, dial, ports, security);
  for (const main of missingMains(variant, (file) => fs.existsSync(path.join(workspaceRoot, file)))) {
    setPath?.stop();
    throw new Error(`${main} is missing: build the apps first (npx nx run-many -t build), or run npx nx run bench:all`);
  }
  fs.mkdirSync(logDir, { recursive: true });

  const children = new Map<AppName, ChildProcess>();
  const exited = new Map<AppName, string>();
  const death = (): Failure | null => {
    for (const [name, how] of exited) {
      const pid = children.get(name)?.pid;
      return { kind: 'died', message: `${name} exited while serving`, process: name, pid, exit: how, logTail: logTail(logDir, name) };
    }
    return null;
  };
  const stop = async () => {
    await Promise.all([...children.values()].map((child) => stopChild(child)));
    children.forEach((child) => running.delete(child));
    setPath?.stop();
  };
  killAllOnExit();

  try {
    for (const name of APP_NAMES) {
      const cores = pinning.cores?.[name];
      const program = variant.runtime === 'node' ? [nodeBinary, ...nodeFlags, ...agentLaunch(profiling, name).nodeArgs, variant.mains[name]] : [path.join(workspaceRoot, variant.mains[name])];
      const pinned = cores ? ['taskset', '-c', cores, ...program] : program;
      // `ip netns exec` execs the program in place: the PID is the app's own (sampled, signalled, quiesced).
      const child = spawnApp(placement ? placement.wrap(sideOf(name), pinned) : pinned, workspaceRoot, envFor(name), path.join(logDir, `${name}.log`));
      children.set(name, child);
      child.on('exit', (code, signal) => exited.set(name, `exited with ${signal ? `signal ${signal}` : `code ${code}`}`));
    }
    const clientUrl = placement ? await placement.exposeOnHost(hosts.client, ports.client) : `http://${hosts.client}:${ports.client}`;
    await waitUntilReady(`${clientUrl}/health/ready`, () => {
      for (const [name, how] of exited) {
        const pid = children.get(name)?.pid;
        return { kind: 'start', message: `${name} ${how} before it was ready`, process: name, pid, exit: how, logTail: logTail(logDir, name) };
      }
      return null;
    });
    await setPath?.check();
    const pids = Object.fromEntries([...children].map(([name, child]) => [name, child.pid ?? -1])) as Record<AppName, number>;
    return { clientUrl, token: runToken(), pids, ports, death, stop, path: setPath, profiling: profiling ?? null };
  } catch (error) {
    await stop();
    throw error;
  }
}

const sideOf = (name: AppName): 'client' | 'server' => (name === 'client' ? 'client' : 'server');

/** The message patterns' (and RabbitMQ queue's) namespace of the set in `slot` (MICROSERVICE_NAMESPACE): sets up at once share a broker, never their calls. */
export function microserviceNamespace(slot: number): string {
  return `bench${process.pid}-set${slot}`;
}

/** One app's environment: where it and the others listen, how it dials them, its security, and (the client only) the control token. */
function appEnv(name: AppName, base: NodeJS.ProcessEnv, hosts: { client: string; server: string }, dial: { serverA: string; serverB: string }, ports: AppPorts, security: StartOptions['security']): NodeJS.ProcessEnv {
  const scheme = security && security.mode !== 'plain' ? 'https' : 'http';
  return {
    ...base,
    HOST: hosts[sideOf(name)],
    CLIENT_PORT: String(ports.client),
    SERVER_A_PORT: String(ports.serverA),
    SERVER_B_PORT: String(ports.serverB),
    SERVER_A_H2_PORT: String(ports.serverAH2),
    SERVER_A_URL: `${scheme}://${dial.serverA}:${ports.serverA}`,
    SERVER_A_H2_URL: `${scheme}://${dial.serverA}:${ports.serverAH2}`,
    SERVER_B_URL: `${dial.serverB}:${ports.serverB}`,
    [MICROSERVICE_ENV.tcpPort]: String(ports.serverBTcp),
    [MICROSERVICE_ENV.tcpUrl]: `${dial.serverB}:${ports.serverBTcp}`,
    ...securityEnv(security, sideOf(name)),
    // Only the client serves a control API; the servers never see the token.
    ...(name === 'client' ? { [CONTROL_TOKEN_ENV]: runToken() } : {}),
    [PARENT_PIPE_ENV]: String(PARENT_PIPE_FD),
  };
}

/** Starts one app, its output appended to its log; tracked so that the bench's exit takes it down. */
function spawnApp([command, ...args]: readonly string[], cwd: string, env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const log = fs.openSync(logFile, 'a');
  // fd 3: a pipe only this process holds the other end of; the app exits when it closes (the bench died).
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', log, log, 'pipe'] });
  fs.closeSync(log);
  running.add(child);
  return child;
}

/**
 * The security variables of one app (libs/config SECURITY_ENV): the mode, the CA, and its own certificate:
 * the servers' for server-a and server-b, the client's under mtls. Plain: the mode alone.
 */
export function securityEnv(security: StartOptions['security'], side: 'client' | 'server'): NodeJS.ProcessEnv {
  if (!security || security.mode === 'plain') return { [SECURITY_ENV.mode]: 'plain' };
  const { certificates } = security;
  const own = side === 'server' ? certificates.server : security.mode === 'mtls' ? certificates.client : null;
  return { [SECURITY_ENV.mode]: security.mode, [SECURITY_ENV.ca]: certificates.ca, [SECURITY_ENV.cert]: own?.cert ?? '', [SECURITY_ENV.key]: own?.key ?? '' };
}

/** A set of apps that did not come up, with what is known of why (the app that exited, its log's last lines). */
export class AppStartError extends Error {
  override readonly name = 'AppStartError';
  constructor(readonly failure: Failure) {
    super([failure.message + ':', ...(failure.logTail ?? [])].join('\n'));
  }
}

async function waitUntilReady(url: string, failure: () => Failure | null): Promise<void> {
  const deadline = Date.now() + START_BOUND_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    const why = failure();
    if (why) throw new AppStartError(why);
    last = await probe(url);
    if (last === 'ok') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new AppStartError({ kind: 'start', message: `apps not ready after ${START_BOUND_MS / 1000} s (${url}: ${last})` });
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
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_BOUND_MS);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
