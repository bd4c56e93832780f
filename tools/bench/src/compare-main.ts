// bench:compare: `npx nx run bench:compare [--base DIR] [--head DIR] [--out DIR]`; defaults to the two newest runs.
import * as path from 'node:path';
import { compareKit } from './compare';
import { renderComparison } from './export/comparison';
import { listRuns, readRun } from './runs';

const USAGE = `Usage: npx nx run bench:compare [--base RUN_DIR] [--head RUN_DIR] [--out RESULTS_DIR]

Compares two runs cell by cell: base and head medians, head/base ratio with its uncertainty, Welch's
t-test p-value and whether the medians' 95% CIs overlap. Defaults: the two newest runs under results/.
`;

function parseArgs(argv: string[]): { base?: string; head?: string; out: string } {
  const args: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const name = flag.replace(/^--/, '');
    if (name === 'help') throw new Error(USAGE);
    if (!['base', 'head', 'out'].includes(name) || !flag.startsWith('--')) throw new Error(`unknown argument ${argv[i]}\n\n${USAGE}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    args[name] = value;
  }
  return { base: args.base, head: args.head, out: path.resolve(args.out ?? 'results') };
}

function main(argv: string[]): number {
  const args = parseArgs(argv);
  const runs = listRuns(args.out);
  const head = args.head ?? runs[runs.length - 1];
  const older = runs.filter((run) => path.resolve(run) !== path.resolve(head ?? ''));
  const base = args.base ?? older[older.length - 1];
  if (!base || !head) throw new Error(`need two runs to compare; found ${runs.length} under ${args.out} (give --base and --head)`);
  const baseRun = readRun(base);
  const headRun = readRun(head);
  const rows = compareKit().compareRuns(baseRun.doc, headRun.doc);
  process.stdout.write(renderComparison(baseRun, headRun, rows));
  return 0;
}

try {
  process.exit(main(process.argv.slice(2)));
} catch (error) {
  process.stderr.write(`bench:compare: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
