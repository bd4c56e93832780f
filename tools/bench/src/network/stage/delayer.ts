import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { delayerArgv } from './commands';
import type { Topology } from './topology';

/** The workspace root: src/network/stage and dist/network/stage are both five levels below it. */
export const WORKSPACE_ROOT = path.resolve(__dirname, '../../../../..');
export const DELAYER_BINARY = path.join(WORKSPACE_ROOT, 'tools/delayer/dist/delayer');

/** The delayer's own counters (its JSON lines; see tools/delayer/main.go). */
export interface DelayerSnapshot {
  event: 'ready' | 'stats' | 'exit' | 'delay';
  pid: number;
  delayUs: number;
  jitterUs: number;
  received: number;
  released: number;
  held: number;
  maxHeld: number;
  verdicts: number;
  overruns: number;
  verdictErrors: number;
  /** Reads of the queue's socket (several packets per read when they came while others were held). */
  reads?: number;
  /** Packets without a usable kernel receive timestamp, timed from when they were read. */
  unstamped?: number;
  lateMeanUs: number;
  lateMaxUs: number;
  cpuUserUs: number;
  cpuSystemUs: number;
  uptimeS: number;
}

type DelayerLine = DelayerSnapshot | { event: 'error'; error: string };

const READY_TIMEOUT_MS = 5000;
const ANSWER_TIMEOUT_MS = 2000;

/** The delayer running in the router namespace, spoken to by signals and read by its JSON lines. */
export class DelayerProcess {
  private waiters: { events: readonly string[]; done: (line: DelayerLine) => void }[] = [];
  private stderr = '';
  last: DelayerSnapshot | null = null;

  private constructor(private readonly child: ChildProcess) {
    readline.createInterface({ input: child.stdout! }).on('line', (text) => {
      let line: DelayerLine;
      try {
        line = JSON.parse(text) as DelayerLine;
      } catch {
        return;
      }
      if (line.event !== 'error') this.last = line;
      const matching = this.waiters.filter((waiter) => waiter.events.includes(line.event));
      matching.forEach((waiter) => waiter.done(line));
    });
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-2000)));
  }

  /** Starts the delayer and waits until it has bound the queue (its "ready" line). */
  static async start(t: Topology, holdUs: number, jitterUs: number, binary = DELAYER_BINARY): Promise<DelayerProcess> {
    if (!fs.existsSync(binary)) throw new Error(`the delayer is not built (${binary}): run npx nx run delayer:build (needs Go)`);
    const [command, ...args] = delayerArgv(t, binary, holdUs, jitterUs);
    const delayer = new DelayerProcess(spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] }));
    const ready = await delayer.next(['ready'], READY_TIMEOUT_MS);
    if (ready?.event !== 'ready') {
      delayer.kill();
      throw new Error(`the delayer did not start${delayer.stderr ? `: ${delayer.stderr.trim()}` : ` within ${READY_TIMEOUT_MS / 1000} s`}`);
    }
    return delayer;
  }

  /** Its PID: `ip netns exec` execs the delayer, so the child's PID is the delayer's. */
  get pid(): number {
    return this.child.pid ?? -1;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Asks for its counters (SIGUSR1). */
  async stats(): Promise<DelayerSnapshot> {
    this.mustRun();
    const answer = this.next(['stats'], ANSWER_TIMEOUT_MS);
    this.child.kill('SIGUSR1');
    const snapshot = await answer;
    if (!snapshot || snapshot.event === 'error') throw new Error(`the delayer (pid ${this.pid}) did not report its counters within ${ANSWER_TIMEOUT_MS / 1000} s`);
    return snapshot;
  }

  /** Changes the delay of packets arriving from now on (held packets keep theirs). */
  async setDelay(holdUs: number, jitterUs: number): Promise<void> {
    this.mustRun();
    const answer = this.next(['delay', 'error'], ANSWER_TIMEOUT_MS);
    this.child.stdin!.write(`delay ${Math.round(holdUs)}us ${Math.round(jitterUs)}us\n`);
    const line = await answer;
    if (!line || line.event === 'error') throw new Error(`the delayer refused delay ${holdUs} µs: ${line?.event === 'error' ? line.error : 'no answer'}`);
  }

  private mustRun(): void {
    if (!this.running) throw new Error(`the delayer (pid ${this.pid}) is not running${this.stderr ? `: ${this.stderr.trim()}` : ''}`);
  }

  /** Stops it (SIGTERM) and returns its last counters. */
  async stop(): Promise<DelayerSnapshot | null> {
    if (!this.running) return this.last;
    const exited = new Promise<void>((resolve) => this.child.once('close', () => resolve()));
    const answer = this.next(['exit'], ANSWER_TIMEOUT_MS);
    this.child.kill('SIGTERM');
    const snapshot = await answer;
    const force = setTimeout(() => this.kill(), ANSWER_TIMEOUT_MS);
    await exited;
    clearTimeout(force);
    return snapshot && snapshot.event !== 'error' ? snapshot : this.last;
  }

  /** Last resort, synchronous (exit hooks). */
  kill(): void {
    if (this.running) this.child.kill('SIGKILL');
  }

  /** The next line with one of `events`; null if the delayer exits or stays silent first. */
  private next(events: readonly string[], timeoutMs: number): Promise<DelayerLine | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(null), timeoutMs);
      const onExit = () => done(null);
      const waiter = { events, done: (line: DelayerLine | null) => done(line) };
      const done = (line: DelayerLine | null) => {
        clearTimeout(timer);
        this.child.off('close', onExit);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(line);
      };
      this.child.once('close', onExit);
      this.waiters.push(waiter);
    });
  }
}
