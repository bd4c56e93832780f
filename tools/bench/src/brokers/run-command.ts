import { execFile } from 'node:child_process';

/** Runs a command to its end and resolves with its stdout; rejects with the end of its stderr. */
export function runCommand(argv: readonly string[], timeoutMs = 30_000, env?: NodeJS.ProcessEnv): Promise<string> {
  const [program, ...args] = argv;
  return new Promise((resolve, reject) => {
    execFile(program, args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const why = stderr.trim().split('\n').slice(-3).join(' | ') || error.message;
      reject(new Error(`${argv.slice(0, 4).join(' ')}${argv.length > 4 ? ' …' : ''} failed: ${why}`));
    });
  });
}
