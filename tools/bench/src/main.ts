// bench: `npx nx run bench:all [options]`. Reads like its steps: options → apps → run → write → print.
import * as path from 'node:path';
import { startApps, type StartedApps } from './apps';
import { HttpClientDriver } from './drivers/http-driver';
import { renderMarkdown, renderTable } from './export/markdown';
import type { RunDocument } from './model';
import { parseOptions, planCases, UsageError, USAGE, type BenchOptions } from './options';
import { printCaseEnd, printCaseStart } from './progress';
import { collectProvenance } from './provenance';
import { toCaseResult } from './results';
import { runCases } from './runner';
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
    coldCallPerCase: true,
    clientUrl: options.clientUrl,
    startedApps: apps ? { pids: apps.pids, ports: apps.ports } : null,
    pinned: false,
  };
}

function save(runDir: string, doc: RunDocument): void {
  writeFileAtomic(path.join(runDir, 'results.json'), JSON.stringify(doc, null, 2) + '\n');
  writeFileAtomic(path.join(runDir, 'results.md'), renderMarkdown(doc));
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
  process.stderr.write(`bench: ${plan.length} case × transport runs; writing ${path.relative(process.cwd(), runDir)}\n`);

  const abort = new AbortController();
  const interrupt = (signal: NodeJS.Signals) => {
    process.stderr.write(`\nbench: ${signal}, stopping after writing what was measured\n`);
    abort.abort();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);

  let apps: StartedApps | null = null;
  try {
    if (!options.clientUrl) {
      process.stderr.write('bench: starting server-a, server-b and client …\n');
      apps = await startApps(WORKSPACE_ROOT, path.join(runDir, 'logs'));
    }
    const driver = new HttpClientDriver(options.clientUrl ?? apps!.clientUrl);
    const doc: RunDocument = {
      schemaVersion: 1,
      incomplete: true,
      provenance: collectProvenance(WORKSPACE_ROOT, await driver.describe(), argv),
      settings: describeSettings(options, startedAt, apps),
      results: [],
    };
    save(runDir, doc);
    pointLatestAt(options.out, runDir);

    await runCases(
      plan,
      driver,
      {
        onCaseStart: printCaseStart,
        onResult: (raw) => {
          printCaseEnd(raw);
          doc.results.push(toCaseResult(raw));
          save(runDir, doc);
        },
      },
      abort.signal,
    );
    doc.incomplete = doc.results.length < plan.length;
    doc.provenance.finishedAt = new Date().toISOString();
    save(runDir, doc);

    process.stdout.write(`\n${renderTable(doc.results)}\n\n`);
    const failed = doc.results.filter((r) => !r.ok).length;
    process.stderr.write(
      `bench: ${doc.results.length - failed} ok, ${failed} failed${doc.incomplete ? ', run incomplete' : ''}; ` +
        `results in ${path.relative(process.cwd(), runDir)}/results.{json,md}\n`,
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
