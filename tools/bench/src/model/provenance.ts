import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import { runtimeInfo } from '@bench/config';
import { readMemoryReclaim } from './memory-reclaim';
import type { Provenance } from './document';

function git(args: string[], cwd: string): string | null {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/**
 * How a run was made: the code (git commit, dirty or not), the machine (with its memory reclaim), the runtime of the bench
 * and the command line (the measuring clients' runtimes are added per variant). GIT_COMMIT stands in where there is no .git
 * (e.g. a container built from a copy of the tree).
 */
export function collectProvenance(workspaceRoot: string, argv: readonly string[]): Provenance {
  const commit = git(['rev-parse', 'HEAD'], workspaceRoot) ?? process.env.GIT_COMMIT ?? null;
  const status = git(['status', '--porcelain', '--untracked-files=no'], workspaceRoot);
  return {
    gitCommit: commit,
    gitDirty: status === null ? null : status.length > 0,
    hostname: os.hostname(),
    loadAverage: os.loadavg(),
    memoryReclaim: readMemoryReclaim(),
    bench: runtimeInfo(),
    arguments: argv,
  };
}
