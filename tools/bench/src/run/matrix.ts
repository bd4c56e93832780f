// bench:all as an experiment of the run frame (experiment.ts): the matrix of cases × transports ×
// variants, across every network, runtime and security mode in one run folder and one document, so its
// reports compare them side by side. The frame walks the axes; this plans the visits, keeps the
// document and its cells, and starts each variant's app sets (app-sets.ts) for a slice of the walk.
import * as os from 'node:os';
import { runVariant, type VariantContext } from './app-sets';
import type { Placement } from './apps';
import { hasTaskset, planPinning } from './pinning';
import { acrossNetwork } from './network-runs';
import { brokersCannotRun, brokersToStart } from './run-brokers';
import { describeDuration, prepareVariant, WORKSPACE_ROOT } from './matrix-prepare';
import { describeSettings } from './matrix-settings';
import type { Experiment, ExperimentFolder, ExperimentOptions, FolderRun, Slice } from './experiment';
import { planVisits, type BenchOptions } from '../plan';
import { failureSummary, CellPool, Progress, describeEstimate, type BrokerMeters, type RunnerHooks, type RunEstimate } from '../measure';
import { exportedFiles, renderRunEnd, RUN_EXPORTERS } from '../export';
import { SCHEMA_VERSION, type Visit, type RunDocument, collectProvenance, toCell, pointLatestAt, shownRunFolder, type Pinning } from '../model';
import { cellLabel, plannedCells } from '../model';
import { RunCertificates, opensslMissing } from '../security';

/** Why the run cannot be had here (TLS without openssl, a broker its transports need not installed), or null. */
export function matrixCannotRun(options: BenchOptions): string | null {
  return (options.securities.some((s) => s.tls) ? opensslMissing() : null) ?? (options.clientUrl ? null : brokersCannotRun(options.transports));
}

/** The frame's options for bench:all's axes. */
export function matrixAxes(options: BenchOptions, argv: readonly string[]): ExperimentOptions {
  return { out: options.out, networks: options.networks, runtimes: options.runtimes, securities: options.securities, argv, startsApps: !options.clientUrl };
}

/** bench:all's experiment: one folder for the whole matrix, the apps started on each runtime's node, a signal ends the visit in progress. */
export function matrixExperiment(options: BenchOptions, argv: readonly string[]): Experiment<RunDocument, Placement> {
  return {
    tool: 'bench',
    folders: 'one-per-run',
    runtimes: 'apps',
    interrupt: 'after-visit',
    exporters: { measuring: RUN_EXPORTERS, end: RUN_EXPORTERS },
    open: (run) => openMatrix(options, argv, run),
  };
}

function pinningOf(options: BenchOptions): Pinning {
  const pinning = options.clientUrl
    ? { ...planPinning(false, os.cpus().length, false), requested: options.pin, reason: 'apps not started by the bench (--client-url)' }
    : planPinning(options.pin, os.cpus().length, options.pin && hasTaskset());
  if (options.pin && !pinning.pinned) process.stderr.write(`bench: not pinning: ${pinning.reason}\n`);
  return pinning;
}

/** The document before the first call: marked incomplete, with the plan's cells so that a killed run names what it lacks. */
function openDocument(options: BenchOptions, argv: readonly string[], plan: readonly Visit[], run: FolderRun): { doc: RunDocument; estimate: RunEstimate } {
  const { estimate, boundMs } = describeDuration(options, plan);
  run.log(`${plan.length} visit(s) × ${options.transports.join(' + ')}, repetitions interleaved; writing ${shownRunFolder(run.runDir, options.out)}`);
  run.log(describeEstimate(estimate, boundMs, shownRunFolder(options.out, options.out)));
  const doc: RunDocument = {
    schemaVersion: SCHEMA_VERSION,
    incomplete: true,
    provenance: { ...collectProvenance(WORKSPACE_ROOT, argv), pinning: pinningOf(options), clients: {} },
    // plannedCells and visitsDone let bench:compare name what a killed run lacks (analysis/completeness.ts).
    settings: { ...describeSettings(options, plan, run.startedAt), expectedMs: Math.round(estimate.ms), expectedFrom: estimate.runs, boundMs, plannedCells: plannedCells(plan), visitsDone: {}, skippedVariants: {} },
    results: [],
  };
  return { doc, estimate };
}

function openMatrix(options: BenchOptions, argv: readonly string[], run: FolderRun): ExperimentFolder<RunDocument, Placement> {
  const plan = planVisits(options);
  const { doc, estimate } = openDocument(options, argv, plan, run);
  pointLatestAt(options.out, run.runDir);
  const skipped = doc.settings.skippedVariants!;
  const hooks = cellHooks(options, plan, estimate, doc, run);
  // One throwaway CA per run, made before the first TLS visit and removed at the end (or at exit).
  const certificates = options.securities.some((s) => s.tls) ? new RunCertificates() : undefined;
  if (certificates) run.keep(() => certificates.remove());
  const remaining = () => plan.filter((p) => !(p.variant in skipped));
  // The brokers the network's sets of apps reach (run-brokers.ts): set for each network by acrossNetwork.
  const brokers = options.clientUrl ? [] : brokersToStart(options.transports);
  let brokerEnv: Record<string, string> = {};
  let brokerMeters: BrokerMeters | undefined;
  return {
    doc,
    across: (network, inner) => {
      return acrossNetwork(network, remaining().filter((p) => p.network === network.name), doc, hooks.runner, run.save, brokers, (placement, started) => {
        brokerEnv = started.env;
        brokerMeters = started.meterOf;
        return inner(placement);
      });
    },
    measure: async (slice) => {
      const context: VariantContext = { workspaceRoot: WORKSPACE_ROOT, options, doc, runDir: run.runDir, pinning: doc.provenance.pinning!, signal: run.signal, hooks: hooks.runner, save: run.save, placement: slice.placement, node: slice.node, certificates, brokerEnv, brokerMeters };
      await measureVariants(options, plan, skipped, slice, context);
    },
    close: () => {
      doc.incomplete = hooks.done() < remaining().length;
      doc.provenance.finishedAt = new Date().toISOString();
      return { doc, code: doc.results.some((r) => !r.ok) || doc.incomplete ? 1 : 0 };
    },
    report: async () => {
      const end = renderRunEnd(doc, { folder: shownRunFolder(run.runDir, options.out), files: exportedFiles(RUN_EXPORTERS), failures: failureSummary(doc.results) });
      // The verdict first: stdout may be a pipe, so its write is let through before the paths on stderr.
      await new Promise((resolve) => process.stdout.write(end.stdout, resolve));
      process.stderr.write(end.stderr);
    },
  };
}

/** The runner's hooks: progress on stderr, each visit's samples pooled into their cells, the exports rewritten. */
function cellHooks(options: BenchOptions, plan: readonly Visit[], estimate: RunEstimate, doc: RunDocument, run: FolderRun): { runner: RunnerHooks; done: () => number } {
  const progress = new Progress(plan, estimate);
  const visitsDone = doc.settings.visitsDone!;
  let done = 0;
  const pool = new CellPool({
    networks: options.networks.map((n) => n.name),
    runtimes: options.runtimes.map((r) => r.name),
    securities: options.securities.map((s) => s.name),
    variants: options.variants.map((v) => v.id),
    cases: options.cases.map((c) => c.id),
    transports: options.transports,
  });
  const runner: RunnerHooks = {
    onVisitStart: (planned) => progress.visitStart(planned, done),
    onRepetition: (planned, repetition) => progress.repetition(planned, repetition),
    onVisitDone: (raws, _index, _total, planned) => {
      progress.visitDone(planned, raws, done++, plan.length);
      pool.add(raws);
      for (const raw of raws) visitsDone[cellLabel(raw)] = (visitsDone[cellLabel(raw)] ?? 0) + 1;
      doc.results = pool.results().map(toCell);
      run.save();
    },
  };
  return { runner, done: () => done };
}

/** One slice of the walk (a network, a runtime, a security mode): each variant's visits, a variant that cannot run here skipped with why. */
async function measureVariants(options: BenchOptions, plan: readonly Visit[], skipped: Record<string, string>, slice: Slice<Placement>, context: VariantContext): Promise<void> {
  for (const variant of options.variants) {
    if (context.signal.aborted) break;
    if (!options.clientUrl && !(variant.id in skipped)) {
      const why = prepareVariant(variant);
      if (why) {
        skipped[variant.id] = why;
        process.stderr.write(`bench: variant ${variant.id} skipped: ${why}\n`);
      }
    }
    if (variant.id in skipped) continue;
    const visits = plan.filter((p) => p.network === slice.network.name && p.runtime === slice.runtime.name && p.security === slice.security.name && p.variant === variant.id);
    await runVariant(visits, variant, context);
  }
}
