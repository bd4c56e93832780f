// Across a network stage a suite's calls are made from the client namespace, as a service's would be:
// its measuring part runs in a process of its own there (`ip netns exec`), so every connection, name
// lookup and sidecar hop is the caller's own. That process reports back over Node's IPC channel (its
// fd survives `ip netns exec`): progress, partial results, and asks for the path's counters per cell
// and, under --cpu-profile, for the profilers around each measured part (the suite's process drives them).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorText } from '../../cli';
import type { PathCounters } from '../../model';
import type { Stage } from '../../network/stage';
import type { PathFeatureId } from '../../network/path';
import type { SuiteServers } from './servers';
import type { ProfiledUnit } from './profiling';

export const JOB_ENV = 'BENCH_SUITE_JOB';

/** What the measuring part knows of the path it calls across (null on loopback). */
export interface PathContext {
  name: string;
  features: PathFeatureId[];
  /** The calibrated TCP connect RTT (median), ms. */
  rttMs: number;
  /** The DNS server's and the sidecars' counters now (differences make a cell's). */
  counters(): Promise<PathCounters>;
}

/** What the job process is given (a JSON file in the run folder). */
export interface StageJob<S> {
  settings: S;
  preset: string;
  runDir: string;
  /** The servers, their security as its variables (file paths, never key bytes: the job loads them itself). */
  servers: Pick<SuiteServers, 'serverAUrl' | 'serverBAddress' | 'pids' | 'ports' | 'securityEnv' | 'nestEnv'>;
  path: Omit<PathContext, 'counters'>;
  /** The values of the suite's extraOptions, by flag (its --transports, …). */
  extras: Record<string, unknown>;
  /** --cpu-profile: the socket this process serves its own profiler on (the suite's process starts and stops it with the apps'), and V8's interval. */
  cpuProfile?: { socket: string; intervalUs: number };
}

type Ask = { type: 'counters' } | { type: 'profile'; op: 'start' | 'stop'; unit: ProfiledUnit; calls: number };
type ChildMessage = { type: 'log'; line: string } | { type: 'save'; partial: unknown } | (Ask & { id: number }) | { type: 'done'; results: unknown } | { type: 'error'; message: string };
type ParentMessage = { type: 'answer'; id: number; counters?: PathCounters };

/** Parent side: runs the suite's measuring part in the client namespace and resolves with its results. */
export function runInClientNamespace<S, R>(
  stage: Stage,
  job: StageJob<S>,
  handlers: { log(line: string): void; save(partial: unknown): void; counters(): Promise<PathCounters>; profile(op: 'start' | 'stop', unit: ProfiledUnit, calls: number): Promise<void> },
): Promise<R> {
  const file = path.join(job.runDir, 'stage-job.json');
  fs.writeFileSync(file, JSON.stringify(job));
  const [program, ...args] = stage.wrap('client', [process.execPath, process.argv[1]]);
  const child = spawn(program, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, [JOB_ENV]: file } });
  return new Promise<R>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, results?: R) => {
      if (settled) return;
      settled = true;
      fs.rmSync(file, { force: true });
      if (error) reject(error);
      else resolve(results as R);
    };
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'log') handlers.log(message.line);
      else if (message.type === 'save') handlers.save(message.partial);
      else if (message.type === 'counters') {
        void handlers.counters().then(
          (counters) => child.send({ type: 'answer', id: message.id, counters } satisfies ParentMessage),
          (error) => finish(new Error(`reading the path's counters: ${errorText(error)}`)),
        );
      } else if (message.type === 'profile') {
        void handlers.profile(message.op, message.unit, message.calls).then(
          () => child.send({ type: 'answer', id: message.id } satisfies ParentMessage),
          (error) => finish(new Error(`the profilers' ${message.op}: ${errorText(error)}`)),
        );
      } else if (message.type === 'done') finish(null, message.results as R);
      else finish(new Error(message.message));
    });
    child.once('error', (error) => finish(error));
    child.once('exit', (code, signal) => finish(new Error(`the measuring process in the client namespace exited (${signal ?? `code ${code}`}) before its results`)));
  });
}

/** Child side: the job file this process was started with, or null when it is the suite's own process. */
export function readJob<S>(env: NodeJS.ProcessEnv = process.env): StageJob<S> | null {
  const file = env[JOB_ENV];
  return file ? (JSON.parse(fs.readFileSync(file, 'utf8')) as StageJob<S>) : null;
}

/** Child side: sends a message to the suite's process. */
export function tellParent(message: ChildMessage): void {
  process.send?.(message);
}

/** Child side: asks the suite's process and resolves with its answer. */
let asked = 0;
function askParent(ask: Ask): Promise<ParentMessage> {
  return new Promise((resolve) => {
    const id = asked++;
    const listener = (message: ParentMessage) => {
      if (message.type !== 'answer' || message.id !== id) return;
      process.off('message', listener);
      resolve(message);
    };
    process.on('message', listener);
    tellParent({ ...ask, id });
  });
}

/** Child side: the path's counters, asked of the suite's process (which runs the DNS server and the sidecars). */
export function countersFromParent(): () => Promise<PathCounters> {
  return async () => (await askParent({ type: 'counters' })).counters!;
}

/** Child side: the profilers (the servers' and this process's) on or off around a measured part, asked of the suite's process. */
export async function profilersFromParent(op: 'start' | 'stop', unit: ProfiledUnit, calls = 0): Promise<void> {
  await askParent({ type: 'profile', op, unit, calls });
}
