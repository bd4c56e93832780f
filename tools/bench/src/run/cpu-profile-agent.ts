// Loaded into every Node app of a `--cpu-profile` run with `node --require` (run/cpu-profiles.ts), before
// the app's own code: V8's CPU profiler, driven by the bench over a Unix socket so that it samples the
// timed calls only. It imports nothing but Node's own modules, and the apps never know it is there.
//
// The protocol, one command per connection, a line each way:
//   {"op":"start","intervalUs":200}  → "ok"   the profiler runs from here
//   {"op":"stop","file":"/abs/x"}    → "ok"   it stops; the profile (.cpuprofile JSON) is at x, whole
// Anything else, or a failure, answers "error: <why>".
//
// A keeper profile runs from the agent's start to the app's end, so V8's profiler is never torn down
// between the stretches. Without it, each start meets code compiled while no profiler ran and V8 cannot
// name all of it: a loop optimized on stack (OSR) in that gap has its samples put on its caller (a timer
// callback's busy loop read as listOnTimeout, the whole stretch). The keeper costs sampling in the gaps
// too (docs/method.md, "CPU profiles"). After each stop a new keeper starts and then the old one ends,
// so one always runs and what each holds never outgrows one gap; ending one serializes it, which is why
// that happens after the stretch, never inside it (where it read as the agent's own `run`).
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
import * as net from 'node:net';

/** The variable naming the socket this app's agent listens on; absent: the agent does nothing. */
export const CPU_PROFILE_SOCKET_ENV = 'BENCH_CPU_PROFILE_SOCKET';
/** The sampling interval, µs, fixed at the agent's start: V8 takes no new one while the keeper runs. */
export const CPU_PROFILE_INTERVAL_ENV = 'BENCH_CPU_PROFILE_INTERVAL_US';
/** The keeper's title: two, alternating, so the next starts before the last ends. */
const keeperTitle = (n: number) => `bench-cpu-profile-keeper-${n % 2}`;
let keepers = 0;

type Command = { op: 'start'; intervalUs: number } | { op: 'stop'; file: string };

function post<T = unknown>(session: inspector.Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))));
}

function parse(line: string): Command {
  const command = JSON.parse(line) as Partial<Command>;
  if (command.op === 'start' && Number.isInteger(command.intervalUs) && (command.intervalUs as number) > 0) return command as Command;
  if (command.op === 'stop' && typeof command.file === 'string' && command.file.startsWith('/')) return command as Command;
  throw new Error(`not a command: ${line.slice(0, 80)}`);
}

/** The profile written whole or not at all: a temp file beside it, then a rename. */
function writeWhole(file: string, content: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, content);
  fs.renameSync(temp, file);
}

async function run(session: inspector.Session, command: Command, keptUs: number | null): Promise<void> {
  if (command.op === 'start') {
    if (keptUs === null) await post(session, 'Profiler.setSamplingInterval', { interval: command.intervalUs });
    else if (command.intervalUs !== keptUs) throw new Error(`this agent samples every ${keptUs} µs (${CPU_PROFILE_INTERVAL_ENV}), not ${command.intervalUs}`);
    await post(session, 'Profiler.start');
    return;
  }
  const { profile } = await post<{ profile: unknown }>(session, 'Profiler.stop');
  writeWhole(command.file, JSON.stringify(profile));
  if (keptUs !== null) {
    inspector.console.profile(keeperTitle(++keepers));
    inspector.console.profileEnd(keeperTitle(keepers - 1));
  }
}

/** The interval the keeper samples at, or null (no keeper: each start sets its own, as before). */
function keeperInterval(): number | null {
  const text = process.env[CPU_PROFILE_INTERVAL_ENV];
  delete process.env[CPU_PROFILE_INTERVAL_ENV];
  const us = Number(text);
  return text !== undefined && Number.isInteger(us) && us > 0 ? us : null;
}

/**
 * Serves the commands on `socketPath` for this process: an app's, from the variables above, or a suite's
 * own process (the caller it profiles beside the apps), which ends it with the returned function.
 */
export function serveCpuProfiler(socketPath: string, keptUs: number | null): () => void {
  const session = new inspector.Session();
  session.connect();
  let ready: Promise<unknown> = post(session, 'Profiler.enable').then(async () => {
    if (keptUs === null) return;
    await post(session, 'Profiler.setSamplingInterval', { interval: keptUs });
    inspector.console.profile(keeperTitle(keepers));
  });
  const server = net.createServer((socket) => {
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      const line = buffered.slice(0, end);
      // Commands run one after the other, whichever connection they came on.
      ready = ready
        .catch(() => undefined)
        .then(() => run(session, parse(line), keptUs))
        .then(
          () => socket.end('ok\n'),
          (error: unknown) => socket.end(`error: ${error instanceof Error ? error.message : String(error)}\n`),
        );
    });
  });
  server.on('error', (error) => process.stderr.write(`cpu-profile agent: ${error.message}\n`));
  fs.rmSync(socketPath, { force: true });
  server.listen(socketPath);
  // Never what keeps the app alive, and gone with it.
  server.unref();
  const removeSocket = () => fs.rmSync(socketPath, { force: true });
  process.once('exit', removeSocket);
  return () => {
    server.close();
    process.off('exit', removeSocket);
    removeSocket();
    void ready.finally(() => {
      if (keptUs !== null) inspector.console.profileEnd(keeperTitle(keepers));
      session.disconnect();
    });
  };
}

const socketPath = process.env[CPU_PROFILE_SOCKET_ENV];
if (socketPath) {
  // Not inherited by anything the app starts.
  delete process.env[CPU_PROFILE_SOCKET_ENV];
  serveCpuProfiler(socketPath, keeperInterval());
}
