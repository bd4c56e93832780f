// Starting a run's brokers: each in a folder of its own under the run's temp folder, with its own
// config and ports, ready once it answers its protocol; stopped and its folder removed at stop(), at
// the process's exit or signal, and — after a SIGKILL — by the next start (leftovers.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { freePort } from '@bench/config';
import { errorText, whenProcessEnds } from '../cli';
import type { Broker, BrokerDefinition, BrokerKind, Launch, LaunchContext } from './contract';
import { killInstance, newStateFile, ownerRef, sweepLeftovers, waitGone, writeState, type ProcessRef } from './leftovers';
import { descendantNamed, sampleProcess, startTicksOf } from './proc';
import { probe } from './probe';
import { brokerDefinition, brokerMissing } from './registry';
import { runCommand } from './run-command';

export interface StartOptions {
  /** The run's temp folder: each broker gets a folder of its own in it, removed at stop. */
  dir: string;
  /** The address the brokers listen on and clients dial (default 127.0.0.1). */
  host?: string;
  /** A network namespace to run them in (the stage's broker namespace); none: this one. */
  namespace?: string;
}

/** Starts the brokers one after the other; on any failure stops those started and throws its reason. */
export async function startBrokers(kinds: readonly BrokerKind[], options: StartOptions): Promise<Broker[]> {
  const missing = kinds.map(brokerMissing).filter((why): why is string => why !== null);
  if (missing.length) throw new Error(missing.join('; '));
  sweepLeftovers();
  const started: Broker[] = [];
  try {
    for (const kind of kinds) started.push(await startBroker(brokerDefinition(kind), options));
    return started;
  } catch (error) {
    for (const broker of started.reverse()) await broker.stop();
    throw error;
  }
}

/** One broker: its folder, config and companions, the process, the probe until it answers. */
export async function startBroker(definition: BrokerDefinition, options: StartOptions): Promise<Broker> {
  const host = options.host ?? '127.0.0.1';
  const wrap = options.namespace ? (argv: readonly string[]) => ['ip', 'netns', 'exec', options.namespace!, ...argv] : null;
  fs.mkdirSync(options.dir, { recursive: true });
  const dir = fs.mkdtempSync(path.join(options.dir, `broker-${definition.record.kind}-`));
  const instance = new Instance(definition.record.kind, dir);
  try {
    const context: LaunchContext = { dir, host, port: freePort, run: (argv, timeoutMs) => runCommand(wrap ? wrap(argv) : [...argv], timeoutMs), wrap: (argv) => (wrap ? wrap(argv) : [...argv]) };
    const launch = await definition.launch(context);
    for (const companion of launch.companions ?? []) instance.spawn(wrap ? wrap(companion.argv) : [...companion.argv], companion.env, 'companion');
    const main = instance.spawn(wrap ? wrap(launch.argv) : [...launch.argv], launch.env, 'main');
    await waitReady(definition, launch, host, main, instance, wrap);
    const pid = launch.sampled ? descendantNamed(main.pid!, launch.sampled.descendant) : main.pid!;
    if (pid === null) throw new Error(`no ${launch.sampled!.descendant} under ${definition.record.name}'s pid ${main.pid}`);
    if (pid !== main.pid) instance.track(pid);
    const version = await launch.version();
    return running(definition, launch, host, pid, version, instance);
  } catch (error) {
    await instance.stop();
    throw new Error(`${definition.record.name} did not start: ${errorText(error)}${instance.lastLog()}`);
  }
}

async function waitReady(definition: BrokerDefinition, launch: Launch, host: string, main: ChildProcess, instance: Instance, wrap: ((argv: readonly string[]) => string[]) | null): Promise<void> {
  const deadline = Date.now() + launch.readyWithinMs;
  for (;;) {
    if (main.exitCode !== null || main.signalCode !== null) throw new Error(`it exited (${main.signalCode ?? `code ${main.exitCode}`})`);
    if (await probe(host, launch.port, launch.probe, wrap)) return;
    if (Date.now() > deadline) throw new Error(`${definition.record.name} did not answer its protocol on ${host}:${launch.port} within ${launch.readyWithinMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function running(definition: BrokerDefinition, launch: Launch, host: string, pid: number, version: string, instance: Instance): Broker {
  return {
    kind: definition.record.kind,
    url: launch.url,
    address: { host, port: launch.port },
    version,
    config: launch.config,
    pid,
    counters: () => launch.counters(),
    sample: (resetPeak = false) => sampleProcess(pid, resetPeak),
    stop: () => instance.stop(),
  };
}

/**
 * One instance's processes and folder, and what stops them: stop(), the process's exit or a signal
 * (re-raised if no one else handles it), or the next start after a SIGKILL (its state file).
 */
class Instance {
  private readonly children: ChildProcess[] = [];
  private readonly refs: ProcessRef[] = [];
  private readonly stateFile: string;
  private stderr = '';
  private stopped = false;
  private readonly unhook: () => void;

  constructor(
    private readonly kind: string,
    private readonly dir: string,
  ) {
    this.stateFile = newStateFile(kind);
    this.save();
    this.unhook = whenProcessEnds(() => this.now());
  }

  /** Starts a process as its own group's leader (a start script's children go with it). */
  spawn(argv: string[], env: NodeJS.ProcessEnv | undefined, role: string): ChildProcess {
    const [program, ...args] = argv;
    const child = spawn(program, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'], cwd: this.dir, env: { ...process.env, ...env } });
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-2000)));
    child.once('error', (error) => (this.stderr += `\n${role} ${program}: ${error.message}`));
    if (child.pid !== undefined) {
      this.children.push(child);
      this.refs.push({ pid: child.pid, startTicks: startTicksOf(child.pid), group: true });
      this.save();
    }
    return child;
  }

  /** A process started by one of ours (recorded so that a sweep finds it by PID too). */
  track(pid: number): void {
    this.refs.push({ pid, startTicks: startTicksOf(pid), group: false });
    this.save();
  }

  lastLog(): string {
    const text = this.stderr.trim().split('\n').slice(-4).join(' | ');
    return text ? ` (stderr: ${text})` : '';
  }

  /** SIGTERM to every group, SIGKILL after a grace, then the folder and the state file. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.stopped) return;
    const live = this.children.filter((c) => c.exitCode === null && c.signalCode === null);
    killInstance(this.refs, 'SIGTERM');
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(live.map((c) => new Promise((resolve) => c.once('exit', resolve)))), new Promise((resolve) => (grace = setTimeout(resolve, graceMs)))]);
    clearTimeout(grace);
    this.now();
  }

  /** At once and synchronously (also from exit hooks): SIGKILL what runs, wait for it, remove the folder. */
  now(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.unhook();
    killInstance(this.refs, 'SIGKILL');
    waitGone(this.refs, 3000);
    fs.rmSync(this.dir, { recursive: true, force: true });
    fs.rmSync(this.stateFile, { force: true });
  }

  private save(): void {
    writeState(this.stateFile, { kind: this.kind, owner: ownerRef(), processes: this.refs, dir: this.dir });
  }
}
