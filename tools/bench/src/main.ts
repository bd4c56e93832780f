// bench: `npx nx run bench:all [options]`. Reads like its steps: options → apps → run → write → print.
import * as os from 'node:os';
import * as path from 'node:path';
import { startApps, type StartedApps } from './apps';
import { HttpClientDriver } from './drivers/http-driver';
import { renderCsv } from './export/csv';
import { renderReport } from './export/html';
import { renderIndex } from './export/index-page';
import { renderMarkdown, renderTable } from './export/markdown';
import type { RunDocument } from './model';
import { parseOptions, planCases, UsageError, USAGE, type BenchOptions } from './options';
import { hasTaskset, planPinning } from './pinning';
import { Progress } from './progress';
import { collectProvenance } from './provenance';
import { toCaseResult } from './results';
import { runCases } from './runner';
import { writeIndex } from './runs';
import { createRunFolder, pointLatestAt, writeFileAtomic } from './store';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');

function describeSettings(options: BenchOptions, startedAt: Date, apps: StartedApps | null): Record<string, unknown> {
  return {
    startedAt: startedAt.toISOString(),
    profile: options.profile.name,
    cases: options.cases.map((c) => c.id),
    transports: options.transports,
    runs: options.runs ?? options.profile.runs,
    runsOverride: options.runs,
    warmup: options.warmup,
    settleMs: options.settleMs,
    coldCallPerCase: true,
    order: 'per case: each transport\'s cold call and warm-up, then timed repetitions interleaved in transport order (json, grpc, json, grpc, …); sampleOrder gives each sample\'s position',
    clientUrl: options.clientUrl,
    startedApps: apps ? { pids: apps.pids, ports: apps.ports } : null,
  };
}

/** Every export of the run, rewritten after each case so an interrupted run still has them all. */
function save(runDir: string, doc: RunDocument): void {
  writeFileAtomic(path.join(runDir, 'results.json'), JSON.stringify(doc, null, 2) + '\n');
  writeFileAtomic(path.join(runDir, 'results.md'), renderMarkdown(doc));
  writeFileAtomic(path.join(runDir, 'results.csv'), renderCsv(doc.results));
  writeFileAtomic(path.join(runDir, 'report.html'), renderReport(doc));
}

async function main(argv: string[]): Promise<number> {
  const options = parseOptions(argv);
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const plan = planCases(options);
  const startedAt = new Date();
  const runDir = createRunFolder(options.out, startedAt);
  process.stderr.write(
    `bench: ${plan.length} case(s) × ${options.transports.join(' + ')}, repetitions interleaved; ` +
      `writing ${path.relative(process.cwd(), runDir)}\n`,
  );

  const abort = new AbortController();
  const interrupt = (signal: NodeJS.Signals) => {
    process.stderr.write(`\nbench: ${signal}, stopping after writing what was measured\n`);
    abort.abort();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);

  let apps: StartedApps | null = null;
  const pinning = options.clientUrl
    ? { ...planPinning(false, os.cpus().length, false), requested: options.pin, reason: 'apps not started by the bench (--client-url)' }
    : planPinning(options.pin, os.cpus().length, options.pin && hasTaskset());
  if (options.pin && !pinning.pinned) process.stderr.write(`bench: not pinning: ${pinning.reason}\n`);
  try {
    if (!options.clientUrl) {
      process.stderr.write('bench: starting server-a, server-b and client …\n');
      apps = await startApps(WORKSPACE_ROOT, path.join(runDir, 'logs'), pinning);
    }
    const driver = new HttpClientDriver(options.clientUrl ?? apps!.clientUrl);
    const doc: RunDocument = {
      schemaVersion: 2,
      incomplete: true,
      provenance: { ...collectProvenance(WORKSPACE_ROOT, await driver.describe(), argv), pinning },
      settings: describeSettings(options, startedAt, apps),
      results: [],
    };
    save(runDir, doc);
    pointLatestAt(options.out, runDir);
    writeIndex(options.out, renderIndex, writeFileAtomic);

    const progress = new Progress(plan);
    await runCases(
      plan,
      driver,
      {
        onCaseStart: (planned, index) => progress.caseStart(planned, index),
        onRepetition: (planned, repetition) => progress.repetition(planned, repetition),
        onCaseDone: (raws, index, total) => {
          progress.caseDone(raws, index, total);
          doc.results.push(...raws.map(toCaseResult));
          save(runDir, doc);
        },
      },
      abort.signal,
    );
    doc.incomplete = doc.results.length < plan.length * options.transports.length;
    doc.provenance.finishedAt = new Date().toISOString();
    save(runDir, doc);
    writeIndex(options.out, renderIndex, writeFileAtomic);

    process.stdout.write(`\n${renderTable(doc.results)}\n\n`);
    const failed = doc.results.filter((r) => !r.ok).length;
    process.stderr.write(
      `bench: ${doc.results.length - failed} ok, ${failed} failed${doc.incomplete ? ', run incomplete' : ''}; ` +
        `results in ${path.relative(process.cwd(), runDir)}/ (results.json, .md, .csv)\n`,
    );
    if (abort.signal.aborted) return 130;
    return failed > 0 || doc.incomplete ? 1 : 0;
  } finally {
    await apps?.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage = error instanceof UsageError;
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n${usage ? '\n' + USAGE : ''}`);
    process.exit(usage ? 2 : 1);
  },
);
