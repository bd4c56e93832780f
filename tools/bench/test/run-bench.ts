import { spawn } from 'node:child_process';
import * as path from 'node:path';

/** The workspace root and the built bench (tools/bench/dist), run as a user would. */
export const ROOT = path.resolve(__dirname, '../../..');
export const MAIN = path.join(ROOT, 'tools/bench/dist/main.js');

/** Runs the built bench:all with `args` (and `env` on top of this process's), resolving with what it printed. */
export function runBench(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
