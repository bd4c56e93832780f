import type { ChildProcess } from 'node:child_process';

/** Sends SIGTERM to a child a test started and resolves once it has exited (at once if it already has). */
export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
