import { spawnSync } from 'node:child_process';
import type { Command } from './commands';
import { errorText } from '../../cli';

/** A command of the stage that failed: its message says which, why it ran, and what it printed. */
export class StageCommandError extends Error {
  override name = 'StageCommandError';
}

/**
 * Runs one command synchronously and returns its stdout. Building and tearing down a stage is a few
 * dozen short commands; running them in order, synchronously, keeps teardown usable from an exit hook.
 */
export function run(command: Command | string[], timeoutMs = 15_000): string {
  const { argv, why } = Array.isArray(command) ? { argv: command, why: '' } : command;
  const [program, ...args] = argv;
  const result = spawnSync(program, args, { encoding: 'utf8', timeout: timeoutMs });
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new StageCommandError(`network stage${why ? ` (${why})` : ''}: ${missing ? `${program} is not installed` : result.error.message}: ${argv.join(' ')}`);
  }
  if (result.status !== 0) {
    const said = (result.stderr || result.stdout || '').trim().split('\n').slice(-3).join(' | ');
    throw new StageCommandError(`network stage${why ? ` (${why})` : ''}: \`${argv.join(' ')}\` failed (${result.signal ?? `exit ${result.status}`})${said ? `: ${said}` : ''}`);
  }
  return result.stdout;
}

/** Like run, but a failure is returned rather than thrown (teardown goes on past one failed step). */
export function tryRun(command: Command | string[], timeoutMs = 15_000): string | null {
  try {
    run(command, timeoutMs);
    return null;
  } catch (error) {
    return errorText(error);
  }
}

/** Whether a program is on PATH. */
export function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).status === 0;
}
