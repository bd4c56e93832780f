import { spawn, type ChildProcess } from 'node:child_process';
import * as readline from 'node:readline';

/**
 * Spawns a helper and resolves with its first stdout line (its "I am listening" answer), or rejects
 * with what it printed on stderr if it exits or stays silent first.
 */
export function spawnUntilFirstLine(argv: readonly string[], timeoutMs = 10_000): Promise<{ child: ChildProcess; line: string }> {
  return new Promise((resolve, reject) => {
    const [program, ...args] = argv;
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    const lines = readline.createInterface({ input: child.stdout! });
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${argv.join(' ')}: ${why}${stderr.trim() ? `: ${stderr.trim()}` : ''}`));
    };
    const timer = setTimeout(() => fail(`no answer within ${timeoutMs / 1000} s`), timeoutMs);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? `code ${code}`})`));
    lines.once('line', (line) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ child, line });
    });
  });
}

/** Runs a helper to completion and returns its stdout (rejects with its stderr on failure). */
export function runToEnd(argv: readonly string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const [program, ...args] = argv;
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${argv.join(' ')}: ${error.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${argv.join(' ')} failed (${signal ?? `exit ${code}`})${stderr.trim() ? `: ${stderr.trim()}` : ''}`));
    });
  });
}
