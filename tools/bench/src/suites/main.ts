// bench:suites: every suite of catalog.ts in sequence, each as its own process (its own servers, its
// own results folder), then a summary.md linking their reports. `--profile` and `--out` are passed on.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderIndex } from '../export/index-page';
import { writeIndex } from '../runs';
import { createRunFolder, writeFileAtomic } from '../store';
import { SUITES } from './catalog';
import { parseSuiteArgs, type SuiteOptionsSpec } from './common/args';

/** bench:suites has no settings of its own: only --profile and --out, read like every suite's. */
const SUITES_SPEC: SuiteOptionsSpec<Record<string, never>> = { suite: 'suites', options: {}, profiles: { default: {}, quick: {} } };

function main(argv: readonly string[]): number {
  const { profile, out } = parseSuiteArgs(SUITES_SPEC, argv);
  const startedAt = new Date();
  const rows: Array<{ suite: string; experiment: string; exitCode: number | null; folder: string | null; seconds: number }> = [];
  for (const suite of SUITES) {
    process.stderr.write(`\nsuites: ${suite.id} (${suite.experiment}) …\n`);
    const before = new Set(fs.existsSync(out) ? fs.readdirSync(out) : []);
    const t0 = Date.now();
    const child = spawnSync(process.execPath, [path.join(__dirname, suite.main), '--profile', profile, '--out', out], { stdio: ['ignore', 'inherit', 'inherit'] });
    const created = fs.readdirSync(out).filter((name) => !before.has(name) && name.startsWith(`${suite.id}-`));
    rows.push({ suite: suite.id, experiment: suite.experiment, exitCode: child.status, folder: created[0] ?? null, seconds: (Date.now() - t0) / 1000 });
    if (child.signal === 'SIGINT') break;
  }
  const runDir = createRunFolder(out, startedAt, 'suites');
  const lines = [`# bench:suites: ${startedAt.toISOString()} (profile ${profile})`, '', '| suite | experiment | status | seconds | report |', '|---|---|---|---:|---|'];
  for (const r of rows) {
    const report = r.folder ? `[${r.folder}/report.html](../${r.folder}/report.html)` : '—';
    lines.push(`| ${r.suite} | ${r.experiment} | ${r.exitCode === 0 ? 'ok' : `FAILED (exit ${r.exitCode})`} | ${r.seconds.toFixed(1)} | ${report} |`);
  }
  lines.push('');
  writeFileAtomic(path.join(runDir, 'summary.json'), JSON.stringify({ startedAt: startedAt.toISOString(), profile, suites: rows }, null, 2) + '\n');
  writeFileAtomic(path.join(runDir, 'summary.md'), lines.join('\n'));
  writeIndex(out, renderIndex, writeFileAtomic);
  process.stdout.write(`\n${lines.join('\n')}`);
  return rows.every((r) => r.exitCode === 0) && rows.length === SUITES.length ? 0 : 1;
}

try {
  process.exit(main(process.argv.slice(2)));
} catch (error) {
  process.stderr.write(`suites: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
