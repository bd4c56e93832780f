// bench: `npx nx run bench:all [options]`. Reads like its steps: options → apps → run → write → print.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KEEP_WARM_NODE_FLAGS, startApps, type StartedApps } from './apps';
import { HttpClientDriver } from './drivers/http-driver';
import { renderCsv } from './export/csv';
import { renderReport } from './export/html';
import { renderIndex } from './export/index-page';
import { renderMarkdown, renderTable } from './export/markdown';
import { probeMachine } from './machine-probe';
import type { PlannedCase, RawResult, RunDocument } from './model';
import { appSetKey, lastVisitOfAppSet, parseOptions, planCases, UsageError, USAGE, type BenchOptions } from './options';
import { hasTaskset, planPinning, type Pinning } from './pinning';
import { Progress } from './progress';
import { collectProvenance } from './provenance';
import { QUIET_RULE, waitUntilQuiet, type QuietRule } from './quiesce';
import { toCaseResult } from './results';
import { runCases, type RunnerHooks } from './runner';
import { writeIndex } from './runs';
import { missingMains, type VariantRecord } from './variants';
import { createRunFolder, pointLatestAt, writeFileAtomic } from './store';
import { inPlanOrder, mergeVisits } from './visits';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');

function describeSettings(options: BenchOptions, plan: readonly PlannedCase[], startedAt: Date): Record<string, unknown> {
  return {
    startedAt: startedAt.toISOString(),
    profile: options.profile.name,
    variants: options.variants.map((v) => ({ id: v.id, description: v.description, mains: v.mains, env: v.env })),
    cases: options.cases.map((c) => c.id),
    transports: options.transports,
    runs: options.runs ?? options.profile.runs,
    runsOverride: options.runs,
    warmup: options.warmup,
    warmupMs: options.warmupMs,
    settleMs: options.settleMs,
    forks: options.forks ?? options.profile.forks,
    forksPerCase: Object.fromEntries(plan.map((p) => [p.record.id, p.forks])),
    visits: options.visits ?? options.profile.visits,
    visitsPerCase: Object.fromEntries(plan.map((p) => [p.record.id, p.visits])),
    rewarmMs: options.rewarmMs,
    coldCallPerCase: true,
    order:
      "per case: each transport's cold call and warm-up (at least warmup calls and warmupMs ms), then timed repetitions interleaved in transport order " +
      "(json, grpc, json, grpc, …); sampleOrder gives each sample's position; variants run one after the other; " +
      "each case's runs are split over its visits, spread evenly over the variant's run (round-robin where cases have as many visits) " +
      "and dealt to its forks in turn; each fork is a set of new apps kept up, idle, until its case's last visit (no forks: one set per variant); " +
      "a fork's first visit makes the cold call and the warm-up, later visits re-warm for rewarmMs per transport; before its first call a visit " +
      'waits until the other sets are quiet (quietWaits); Node apps that idle between visits run with keepWarmNodeFlags (startedApps[].nodeFlags); ' +
      'a cell pools its visits (cold: the first visit\'s)',
    clientUrl: options.clientUrl,
    startedApps: {},
    quietWaits: { rule: QUIET_RULE, visits: 0, totalMs: 0, notQuiet: 0 },
    keepWarmNodeFlags: KEEP_WARM_NODE_FLAGS,
  };
}

/**
 * Makes sure a variant's processes exist, building them when the variant knows how (the Go reference
 * lives outside the Nx build). Returns why an optional variant cannot run here, or null when it can.
 */
function prepareVariant(variant: VariantRecord): string | null {
  const exists = (file: string) => fs.existsSync(path.join(WORKSPACE_ROOT, file));
  if (missingMains(variant, exists).length > 0 && variant.build) {
    process.stderr.write(`bench: building variant ${variant.id}: ${variant.build.join(' ')}\n`);
    spawnSync(variant.build[0], variant.build.slice(1), { cwd: WORKSPACE_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  }
  const missing = missingMains(variant, exists);
  if (missing.length === 0) return null;
  const why = `${missing.join(', ')} not built (see the build's message above)`;
  if (variant.optional) return why;
  throw new Error(`variant ${variant.id}: ${why}`);
}

interface VariantContext {
  options: BenchOptions;
  doc: RunDocument;
  runDir: string;
  pinning: Pinning;
  signal: AbortSignal;
  hooks: RunnerHooks;
}

/** A set of apps that is up: started by the bench (apps) or given by --client-url (apps null). */
interface LiveSet {
  apps: StartedApps | null;
  driver: HttpClientDriver;
  slot: number;
}

/** Starts the set of apps a visit needs (unless --client-url), records it, and asks the client who it is. */
async function startSet(planned: PlannedCase, slot: number, variant: VariantRecord, ctx: VariantContext): Promise<LiveSet> {
  const { options, doc, runDir, pinning } = ctx;
  let apps: StartedApps | null = null;
  if (!options.clientUrl) {
    const id = planned.record.id;
    const forWhat = planned.fork > 0 ? ` for ${id} fork ${planned.fork}/${planned.forks}` : '';
    process.stderr.write(`bench: starting server-a, server-b and client (${variant.id})${forWhat} …\n`);
    const logDir = path.join(runDir, 'logs', variant.id, ...(planned.fork > 0 ? [`${planned.record.aliases[0] ?? id}-fork${planned.fork}`] : []));
    // Only sets that idle between visits need keeping warm; a set with one visit runs as plain Node.
    const nodeFlags = planned.visits > Math.max(1, planned.forks) ? KEEP_WARM_NODE_FLAGS : [];
    apps = await startApps(WORKSPACE_ROOT, logDir, pinning, variant, { slot, nodeFlags });
    const started = doc.settings.startedApps as Record<string, unknown[]>;
    (started[variant.id] ??= []).push({
      cases: planned.fork > 0 ? [id] : 'all',
      fork: planned.fork,
      pids: apps.pids,
      ports: apps.ports,
      nodeFlags: variant.runtime === 'node' ? nodeFlags : [],
    });
    save(runDir, doc);
  }
  try {
    const driver = new HttpClientDriver(options.clientUrl ?? apps!.clientUrl);
    const client = await driver.describe();
    (doc.provenance.clients as Record<string, unknown>)[variant.id] = client;
    doc.provenance.client ??= client;
    return { apps, driver, slot };
  } catch (error) {
    await apps?.stop();
    throw error;
  }
}

/**
 * Runs one variant's visits in plan order. Each set of apps starts at its first visit, idles between
 * visits while other sets serve theirs, and stops after its last; before its first call, a visit waits
 * until the idle sets are quiet (quiesce.ts). Every set still up is stopped however the loop ends.
 */
async function runVariant(visits: readonly PlannedCase[], variant: VariantRecord, ctx: VariantContext): Promise<void> {
  const last = lastVisitOfAppSet(visits);
  const live = new Map<string, LiveSet>();
  const quiet = ctx.doc.settings.quietWaits as QuietWaits;
  try {
    for (const [index, planned] of visits.entries()) {
      if (ctx.signal.aborted) break;
      const key = appSetKey(planned);
      let set = live.get(key);
      if (!set) {
        const taken = new Set([...live.values()].map((s) => s.slot));
        let slot = 0;
        while (taken.has(slot)) slot++;
        set = await startSet(planned, slot, variant, ctx);
        live.set(key, set);
      }
      const idle = [...live.entries()].filter(([k]) => k !== key).flatMap(([, s]) => (s.apps ? Object.values(s.apps.pids) : []));
      const beforeVisit = async () => {
        const wait = await waitUntilQuiet(idle);
        quiet.visits++;
        quiet.totalMs = Math.round(quiet.totalMs + wait.waitedMs);
        if (!wait.quiet) quiet.notQuiet++;
      };
      await runCases([planned], set.driver, { ...ctx.hooks, beforeVisit }, ctx.signal, probeMachine);
      if (last.get(key) === index) {
        live.delete(key);
        await set.apps?.stop();
      }
    }
  } finally {
    await Promise.all([...live.values()].map((s) => s.apps?.stop()));
  }
}

/** What the quiet waits before timed calls came to, in settings (quiesce.ts). */
interface QuietWaits {
  rule: QuietRule;
  visits: number;
  totalMs: number;
  notQuiet: number;
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

  const pinning = options.clientUrl
    ? { ...planPinning(false, os.cpus().length, false), requested: options.pin, reason: 'apps not started by the bench (--client-url)' }
    : planPinning(options.pin, os.cpus().length, options.pin && hasTaskset());
  if (options.pin && !pinning.pinned) process.stderr.write(`bench: not pinning: ${pinning.reason}\n`);

  const doc: RunDocument = {
    schemaVersion: 2,
    incomplete: true,
    provenance: { ...collectProvenance(WORKSPACE_ROOT, argv), pinning, clients: {} },
    settings: describeSettings(options, plan, startedAt),
    results: [],
  };
  save(runDir, doc);
  pointLatestAt(options.out, runDir);
  writeIndex(options.out, renderIndex, writeFileAtomic);

  const progress = new Progress(plan);
  let done = 0;
  const cells = new Map<string, { raw: RawResult; visits: number }>();
  const skipped: Record<string, string> = {};
  doc.settings.skippedVariants = skipped;
  const hooks: RunnerHooks = {
    onCaseStart: (planned) => progress.caseStart(planned, done),
    onRepetition: (planned, repetition) => progress.repetition(planned, repetition),
    onCaseDone: (raws, _index, _total, planned) => {
      progress.caseDone(planned, raws, done++, plan.length);
      for (const raw of raws) {
        const key = `${raw.variant}\u0000${raw.case}\u0000${raw.transport}`;
        const sofar = cells.get(key);
        cells.set(key, sofar ? { raw: mergeVisits(sofar.raw, raw, sofar.visits), visits: sofar.visits + 1 } : { raw, visits: 1 });
      }
      // A cell's row appears with its first visit and grows with each later one.
      const pooled = [...cells.values()].map((cell) => cell.raw);
      doc.results = inPlanOrder(pooled, options.variants.map((v) => v.id), options.cases.map((c) => c.id), options.transports).map(toCaseResult);
      save(runDir, doc);
    },
  };
  const context: VariantContext = { options, doc, runDir, pinning, signal: abort.signal, hooks };
  for (const variant of options.variants) {
    if (abort.signal.aborted) break;
    if (!options.clientUrl) {
      const why = prepareVariant(variant);
      if (why) {
        skipped[variant.id] = why;
        process.stderr.write(`bench: variant ${variant.id} skipped: ${why}\n`);
        continue;
      }
    }
    await runVariant(plan.filter((p) => p.variant === variant.id), variant, context);
  }

  doc.incomplete = done < plan.filter((p) => !(p.variant in skipped)).length;
  doc.provenance.finishedAt = new Date().toISOString();
  save(runDir, doc);
  writeIndex(options.out, renderIndex, writeFileAtomic);

  process.stdout.write(`\n${renderTable(doc.results)}\n\n`);
  const failed = doc.results.filter((r) => !r.ok).length;
  process.stderr.write(
    `bench: ${doc.results.length - failed} ok, ${failed} failed${doc.incomplete ? ', run incomplete' : ''}; ` +
      `results in ${path.relative(process.cwd(), runDir)}/ (results.json, .md, .csv, report.html)\n`,
  );
  if (abort.signal.aborted) return 130;
  return failed > 0 || doc.incomplete ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage = error instanceof UsageError;
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n${usage ? '\n' + USAGE : ''}`);
    process.exit(usage ? 2 : 1);
  },
);
