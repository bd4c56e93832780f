import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

/** The workspace root and the built bench (tools/bench/dist), run as a user would. */
export const ROOT = path.resolve(__dirname, '../../..');
export const MAIN = path.join(ROOT, 'tools/bench/dist/main.js');

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built bench:all with `args` (and `env` on top of this process's), resolving with what it printed;
 * `onStderr` sees the stderr so far at each chunk (a test that acts mid-run, e.g. kills an app).
 */
export function runBench(args: string[], env: NodeJS.ProcessEnv = {}, onStderr?: (text: string, child: ChildProcess) => void): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      onStderr?.(stderr, child);
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Lines of the bench's stderr a failed expectation shows: enough for the cell's failure and its reason. */
const STDERR_TAIL_LINES = 40;

/**
 * Asserts the bench's exit code; when it differs, the failure carries the end of what the bench printed,
 * so a run that failed in CI says why there, not only "expected 0, received 1".
 */
export function expectExit(result: { code: number | null; stderr: string }, code: number): void {
  if (result.code === code) return;
  const tail = result.stderr.trimEnd().split('\n').slice(-STDERR_TAIL_LINES).join('\n');
  throw new Error(`the bench exited with ${result.code}, expected ${code}; the end of its stderr:\n${tail}`);
}
