// bench:compare: `npx nx run bench:compare [--base DIR] [--head DIR] [--out DIR]`; defaults to the two newest runs.
// With --series N: the newest N complete runs of the newest run's plan, case by case (what a newcomer will see).
import * as path from 'node:path';
import { runTool, type Command, type CommandLine } from './cli';
import { compareKit, renderComparison } from './compare';
import { listRuns, networkOf, presetOf, readRun, type StoredRun } from './model';
import { completenessOf, describeIncomplete, repeatability } from './analysis';
import { renderRepeatability } from './export';
import { OUT_OPTION } from './plan';

const OPTIONS = {
  base: { kind: 'text', value: 'RUN_DIR', description: 'the run to compare against', defaultText: 'the newest run under --out other than --head' },
  head: { kind: 'text', value: 'RUN_DIR', description: 'the run to judge', defaultText: 'the newest run under --out' },
  out: OUT_OPTION,
  series: {
    kind: 'int',
    value: 'N',
    min: 2,
    max: 100,
    description:
      "instead of two runs: the newest N complete runs under --out that planned what the newest did (preset, variants, cases, transports, networks), per case each run's winner and factor, the range and how many consecutive pairs agree within 10 %",
  },
  'allow-incomplete': {
    kind: 'switch',
    description: 'compare a run that stopped before every planned visit ran (killed, interrupted) instead of refusing it; the cells it lacks are listed on stderr',
  },
} as const;

export const COMPARE_COMMAND: Command<typeof OPTIONS> = {
  name: 'bench:compare',
  synopsis: 'npx nx run bench:compare [--base RUN_DIR] [--head RUN_DIR] [--out RESULTS_DIR] [--allow-incomplete] | [--series N]',
  about:
    "Compares two runs cell by cell: base and head medians, head/base ratio with its uncertainty, Welch's\n" +
    "t-test p-value and whether the medians' 95% CIs overlap. Defaults: the two newest runs under results/.",
  options: OPTIONS,
};

function main({ values }: CommandLine<typeof OPTIONS>): number {
  const out = path.resolve(values.out);
  const runs = listRuns(out);
  if (values.series !== undefined) return series(runs, values.series, out);
  const head = values.head ?? runs[runs.length - 1];
  const older = runs.filter((run) => path.resolve(run) !== path.resolve(head ?? ''));
  const base = values.base ?? older[older.length - 1];
  if (!base || !head) throw new Error(`need two runs to compare; found ${runs.length} under ${out} (give --base and --head)`);
  const baseRun = readRun(base);
  const headRun = readRun(head);
  // A killed run is no baseline, nor a head to judge: its missing cells would read as "no change".
  for (const [role, run] of [['base', baseRun], ['head', headRun]] as const) {
    const completeness = completenessOf(run.doc);
    if (completeness.complete) continue;
    const what = describeIncomplete(`the ${role} run ${run.name}`, completeness);
    if (!values['allow-incomplete']) throw new Error(`${what}. Compare complete runs, or give --allow-incomplete to compare the cells both runs have`);
    process.stderr.write(`bench:compare: ${what}; comparing the cells both runs have (--allow-incomplete)\n`);
  }
  const rows = compareKit().compareRuns(baseRun.doc, headRun.doc);
  process.stdout.write(renderComparison(baseRun, headRun, rows));
  return 0;
}

/** The plan a series must share: runs of another preset or matrix are not repeats of each other. */
function planOf({ doc }: StoredRun): string {
  const s = doc.settings;
  const names = (list: readonly { name: string }[] | undefined) => list?.map((x) => x.name) ?? null;
  const networks = [...new Set(doc.results.map(networkOf))];
  return JSON.stringify([presetOf(s), s.variants?.map((v) => v.id) ?? null, s.cases, s.transports, networks, names(s.runtimes), names(s.security)]);
}

function series(runDirs: readonly string[], n: number, out: string): number {
  const complete = runDirs.map(readRun).filter((run) => completenessOf(run.doc).complete);
  const newest = complete[complete.length - 1];
  if (!newest) throw new Error(`--series needs complete runs; found none under ${out}`);
  const same = complete.filter((run) => planOf(run) === planOf(newest)).slice(-n);
  if (same.length < n) throw new Error(`--series ${n}: only ${same.length} complete run(s) under ${out} planned what the newest (${newest.name}) did`);
  const rows = repeatability(same.map((run) => ({ name: run.name, results: run.doc.results })));
  process.stdout.write(renderRepeatability(rows, same.map((run) => run.name)) + '\n');
  return 0;
}

// A run that cannot be read or compared exits 2, as it always has.
if (require.main === module) runTool(COMPARE_COMMAND, main, { errorExitCode: 2 });
