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
