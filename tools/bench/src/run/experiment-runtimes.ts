// The runtime axis for the run frame (experiment.ts): every runtime's `node` is found or fetched before
// the first call, so a runtime that cannot be had stops the run before anything is measured; a tool
// whose own process makes the calls (a suite) is run again on each runtime's node.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { resolveNodeBinary, type NodeBinary } from './node-binaries';
import type { RuntimeRecord } from '../plan';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../../..');

const SOURCE_TEXT: Record<NodeBinary['source'], string> = { bench: 'the one running the bench', project: "the project's, from npm ci", cache: 'cached', fetched: 'fetched now' };

/** Each runtime's `node` by runtime name; none when the apps are not the bench's (--client-url). */
export function prepareRuntimes(tool: string, options: { runtimes: readonly RuntimeRecord[]; startsApps: boolean }): Map<string, NodeBinary> {
  const binaries = new Map<string, NodeBinary>();
  if (!options.startsApps) return binaries;
  for (const runtime of options.runtimes) {
    const binary = resolveNodeBinary(runtime, { installed: path.join(WORKSPACE_ROOT, 'node_modules', '.bin', 'node') });
    if (binary.source !== 'bench') process.stderr.write(`${tool}: Node ${runtime.version} (--node ${runtime.name}): ${binary.path} (${SOURCE_TEXT[binary.source]})\n`);
    binaries.set(runtime.name, binary);
  }
  return binaries;
}

/** Whether the runtimes need processes of their own: more than one, or one other than this process's. */
export function runsInOwnProcess(binaries: ReadonlyMap<string, NodeBinary>): boolean {
  const all = [...binaries.values()];
  return all.length > 1 || (all.length === 1 && all[0].source !== 'bench');
}

/** Runs this tool again on each runtime's node, one after the other; the worst exit code (130 stops the rest). */
export function rerunPerRuntime(tool: string, binaries: ReadonlyMap<string, NodeBinary>, argv: readonly string[]): number {
  let worst = 0;
  for (const binary of binaries.values()) {
    process.stderr.write(`${tool}: on Node ${binary.version} (--node ${binary.runtime}): ${binary.path}\n`);
    const child = spawnSync(binary.path, [process.argv[1], ...withOneRuntime(argv, binary.runtime)], { stdio: ['ignore', 'inherit', 'inherit'] });
    const code = child.status ?? (child.signal === 'SIGINT' ? 130 : 1);
    worst = Math.max(worst, code);
    if (code === 130) break;
  }
  return worst;
}

/** argv with --node set to one runtime (for the process that runs the tool on it): `--node X` and `--node=X` both replaced. */
export function withOneRuntime(argv: readonly string[], name: string): string[] {
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--node') i++;
    else if (!argv[i].startsWith('--node=')) rest.push(argv[i]);
  }
  return [...rest, '--node', name];
}
