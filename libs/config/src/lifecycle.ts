import { Socket } from 'node:net';
import { ConfigError } from './config-error';

/** How long an app may take to finish in-flight work after SIGTERM/SIGINT before it is forced out. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Closes the app (servers, gRPC channels, Nest shutdown hooks) on SIGTERM or SIGINT and exits 0, so
 * the bench, docker-compose and a terminal all see a clean stop; exits 1 if closing fails or hangs.
 */
export function stopOnSignals(app: { close(): Promise<void> }, name: string, log: (line: string) => void = console.log): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${name}: ${signal}, shutting down`);
    setTimeout(() => {
      log(`${name}: still busy after ${SHUTDOWN_GRACE_MS / 1000} s, exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`${name}: shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/**
 * The variable through which a parent (the bench) hands an app the descriptor of a pipe it holds the
 * other end of. When the parent dies, however it dies (SIGKILL included), the kernel closes its end and
 * the app reads end-of-file: the one notice that needs no cooperation from the dying process.
 */
export const PARENT_PIPE_ENV = 'BENCH_PARENT_FD';

/**
 * Exits when the process that started this app is gone, if it asked for that (PARENT_PIPE_ENV): an app
 * outliving its bench keeps ports, CPU and memory that the next run would then measure against.
 * Returns whether it watches. Apps started by hand, compose or Kubernetes set no such variable.
 */
export function exitWithParent(name: string, env: NodeJS.ProcessEnv = process.env, log: (line: string) => void = console.error): boolean {
  const text = env[PARENT_PIPE_ENV]?.trim();
  if (!text) return false;
  const fd = Number(text);
  if (!Number.isInteger(fd) || fd < 3) throw new ConfigError(`${PARENT_PIPE_ENV} must be a file descriptor number of 3 or more, got ${JSON.stringify(text)}`);
  // Not inherited by anything this app starts: the pipe is this process's alone.
  delete process.env[PARENT_PIPE_ENV];
  let pipe: Socket;
  try {
    pipe = new Socket({ fd, readable: true, writable: false });
  } catch (error) {
    throw new ConfigError(`${PARENT_PIPE_ENV}=${fd}: not an open pipe (${error instanceof Error ? error.message : String(error)})`);
  }
  const gone = () => {
    log(`${name}: the process that started it is gone (its pipe closed); exiting`);
    process.exit(1);
  };
  pipe.on('end', gone);
  pipe.on('error', gone);
  pipe.on('data', () => undefined); // the parent never writes; reading is what notices the end
  pipe.unref(); // the watch alone never keeps the app running
  return true;
}
