// The bench's side of the driver: starts it in the client namespace and exchanges one JSON line per
// command (driver.ts has the protocol).
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { Stage } from '../../network/stage';
import { WORKSPACE_ROOT } from '../common/suite-main';
import type { DriverCommand, DriverConfig, DriverReply } from './driver';

/** The built driver, also when this module runs from source (tests): the same place either way. */
const DRIVER_MAIN = path.join(WORKSPACE_ROOT, 'tools/bench/dist/suites/service/driver.js');

export class DriverProcess {
  private readonly queued: DriverReply[] = [];
  /** Replies are matched by type: a counters reply may arrive while a step is still running. */
  private readonly waiters: { type: DriverReply['type']; resolve(reply: DriverReply): void; reject(error: Error): void }[] = [];
  private stderr = '';
  private exited: string | null = null;

  private constructor(private readonly child: ChildProcess) {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      // Only the driver's replies belong on its stdout (driver.ts sends everything else to stderr); anything else is kept as its output.
      if (!line.startsWith('{')) return void (this.stderr = `${this.stderr}${line}\n`.slice(-4000));
      const reply = JSON.parse(line) as DriverReply;
      const i = this.waiters.findIndex((w) => w.type === reply.type);
      if (i >= 0) this.waiters.splice(i, 1)[0].resolve(reply);
      else this.queued.push(reply);
    });
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-4000)));
    child.once('exit', (code, signal) => {
      this.exited = `the driver exited (${signal ?? `code ${code}`})${this.stderr.trim() ? `: ${this.stderr.trim()}` : ''}`;
      this.waiters.splice(0).forEach((w) => w.reject(new Error(this.exited!)));
    });
  }

  /**
   * Starts the driver in the client namespace on the bench's own node, and waits for its warm-up to end;
   * `env` adds to its environment (the Nest transports' settings: the brokers' URLs, the set's namespace).
   */
  static async start(stage: Stage, config: DriverConfig, env: Record<string, string> = {}): Promise<DriverProcess> {
    const [command, ...args] = stage.wrap('client', [process.execPath, DRIVER_MAIN, JSON.stringify(config)]);
    const driver = new DriverProcess(spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } }));
    await driver.next('ready');
    return driver;
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  async send<T extends DriverReply['type']>(command: DriverCommand, expect: T): Promise<Extract<DriverReply, { type: T }>> {
    this.child.stdin!.write(`${JSON.stringify(command)}\n`);
    return this.next(expect);
  }

  private next<T extends DriverReply['type']>(type: T): Promise<Extract<DriverReply, { type: T }>> {
    const i = this.queued.findIndex((r) => r.type === type);
    if (i >= 0) return Promise.resolve(this.queued.splice(i, 1)[0] as Extract<DriverReply, { type: T }>);
    if (this.exited) return Promise.reject(new Error(this.exited));
    return new Promise((resolve, reject) => this.waiters.push({ type, resolve: (reply) => resolve(reply as Extract<DriverReply, { type: T }>), reject }));
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin!.end(`${JSON.stringify({ type: 'stop' })}\n`);
    const force = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(force);
  }
}
