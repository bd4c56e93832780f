// bench:suites: every suite of catalog.ts in sequence, each as its own process (its own servers, its
// own results folder), then a summary.md linking their reports. `--profile`, `--out`, `--node` and `--cpu-profile` are passed on.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderIndex } from '../compare';
import { writeIndex, createRunFolder, writeFileAtomic } from '../model';
import { SUITES } from './catalog';
import { runTool, type Command, type CommandLine } from '../cli';
import { SUITE_RUN_OPTIONS } from './common/args';
import { runtimesOf } from '../plan';

/** bench:suites has no settings of its own: only --profile, --out, --node and --cpu-profile, which it passes on to every suite. */
export const SUITES_COMMAND: Command<typeof SUITE_RUN_OPTIONS> = {
  name: 'bench:suites',
  synopsis: 'npx nx run bench:suites [--profile NAME] [--out DIR] [--node LIST] [--cpu-profile]',
  about: `Runs every suite in turn (${SUITES.map((s) => s.id).join(', ')}),\neach as its own process with its own servers and results folder, then writes a summary.md linking their reports.`,
  options: SUITE_RUN_OPTIONS,
};

function main({ values }: CommandLine<typeof SUITE_RUN_OPTIONS>): number {
  const { profile } = values;
  const node = runtimesOf(values.node).map((r) => r.name).join(',');
  const out = path.resolve(values.out);
  const startedAt = new Date();
  // folder: the suite's first run folder; folders: all of them (one per --node runtime and --network profile).
  const rows: Array<{ suite: string; experiment: string; exitCode: number | null; folder: string | null; folders: string[]; seconds: number }> = [];
  for (const suite of SUITES) {
    process.stderr.write(`\nsuites: ${suite.id} (${suite.experiment}) …\n`);
    const before = new Set(fs.existsSync(out) ? fs.readdirSync(out) : []);
    const t0 = Date.now();
    const child = spawnSync(process.execPath, [path.join(__dirname, suite.main), '--profile', profile, '--out', out, '--node', node, ...(values['cpu-profile'] ? ['--cpu-profile'] : [])], { stdio: ['ignore', 'inherit', 'inherit'] });
    const created = fs.readdirSync(out).filter((name) => !before.has(name) && name.startsWith(`${suite.id}-`)).sort();
    rows.push({ suite: suite.id, experiment: suite.experiment, exitCode: child.status, folder: created[0] ?? null, folders: created, seconds: (Date.now() - t0) / 1000 });
    if (child.signal === 'SIGINT') break;
  }
  const runDir = createRunFolder(out, startedAt, 'suites');
  const lines = [`# bench:suites: ${startedAt.toISOString()} (profile ${profile})`, '', '| suite | experiment | status | seconds | report |', '|---|---|---|---:|---|'];
  for (const r of rows) {
    const report = r.folders.length > 0 ? r.folders.map((f) => `[${f}/report.html](../${f}/report.html)`).join(', ') : '—';
    lines.push(`| ${r.suite} | ${r.experiment} | ${r.exitCode === 0 ? 'ok' : `FAILED (exit ${r.exitCode})`} | ${r.seconds.toFixed(1)} | ${report} |`);
  }
  lines.push('');
  writeFileAtomic(path.join(runDir, 'summary.json'), JSON.stringify({ startedAt: startedAt.toISOString(), profile, suites: rows }, null, 2) + '\n');
  writeFileAtomic(path.join(runDir, 'summary.md'), lines.join('\n'));
  writeIndex(out, renderIndex, writeFileAtomic);
  process.stdout.write(`\n${lines.join('\n')}`);
  return rows.every((r) => r.exitCode === 0) && rows.length === SUITES.length ? 0 : 1;
}

// A suite that cannot even start (no results folder, say) exits 2, as it always has.
if (require.main === module) runTool(SUITES_COMMAND, main, { errorExitCode: 2 });
