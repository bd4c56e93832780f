// bench: `npx nx run bench:all [options]`. Reads like its steps: options → apps → run → write → print.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { noQuietWaits, runVariant, type VariantContext, KEEP_WARM_NODE_FLAGS, variantOfClient, describeGivenToken, givenToken, deployedNetwork, acrossNetwork, checkNetworks, hasTaskset, planPinning, resolveNodeBinary, type NodeBinary } from './run';
import { DEADLINE_RULE, RESTARTS_PER_SET, runBoundMs, BENCH_ALL_COMMAND, optionsOf, type BenchOptions, appSetKey, planCases, missingMains, type VariantRecord } from './plan';
import { HttpClientDriver, failureSummary, CellPool, expectedCostMs, Progress, SET_START_MS, STAGE_BUILD_MS, type RunnerHooks, describeEstimate, estimateRun, type RunEstimate } from './measure';
import { usesStage } from './network';
import { exportedFiles, renderRunEnd, RUN_EXPORTERS, writeExports } from './export';
import { renderIndex } from './compare';
import { SCHEMA_VERSION, type PlannedCase, type RunDocument, type BenchSettings, collectProvenance, toCaseResult, cellLabel, plannedCells, writeIndex, listRuns, readRun, type StoredRun, createRunFolder, pointLatestAt, shownRunFolder, writeFileAtomic, runtimeNameOf, rttMs } from './results';
import { errorText, runTool, type CommandLine } from './cli';
import { RunCertificates, opensslMissing } from './security';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');

function describeSettings(options: BenchOptions, plan: readonly PlannedCase[], startedAt: Date): BenchSettings {
  return {
    startedAt: startedAt.toISOString(),
    profile: options.preset.name,
    runtimes: options.runtimes.map((r) => ({ name: r.name, version: r.version })),
    security: options.securities.map((s) => ({ name: s.name, what: s.what })),
    variants: options.variants.map((v) => ({ id: v.id, description: v.description, mains: v.mains, env: v.env })),
    cases: options.cases.map((c) => c.id),
    transports: options.transports,
    runs: options.runs ?? options.preset.runs,
    runsOverride: options.runs,
    warmup: options.warmup,
    warmupMs: options.warmupMs,
    settleMs: options.settleMs,
    forks: options.forks ?? options.preset.forks,
    forksPerCase: Object.fromEntries(plan.map((p) => [p.record.id, p.forks])),
    visits: options.visits ?? options.preset.visits,
    visitsPerCase: Object.fromEntries(plan.map((p) => [p.record.id, p.visits])),
    rewarmMs: options.rewarmMs,
    // Timed calls per case (all visits and transports) after which a visit stops repeating; null: every run is made.
    budgetMs: options.runs === null ? options.preset.budgetMs : null,
    minRunsPerVisit: options.preset.minRunsPerVisit,
    coldCallPerCase: true,
    order:
      "per case: each transport's cold call and warm-up (at least warmup calls and warmupMs ms), then timed repetitions interleaved in transport order " +
      "(json, grpc, json, grpc, …); sampleOrder gives each sample's position; variants run one after the other; " +
      "each case's runs are split over its visits, spread evenly over the variant's run (round-robin where cases have as many visits) " +
      "and dealt to its forks in turn; each fork is a set of new apps kept up, idle, until its case's last visit (no forks: one set per variant); " +
      "a fork's first visit makes the cold call and the warm-up, later visits re-warm for rewarmMs per transport; before its first call a visit " +
      'waits until the other sets are quiet (quietWaits); Node apps that idle between visits run with keepWarmNodeFlags (startedApps[].nodeFlags); ' +
      'a cell pools its visits (cold: the first visit\'s); with a budget (budgetMs) each visit stops repeating once its timed calls add up to its share ' +
      '(budgetMs / visits, at least minRunsPerVisit repetitions), so runs is a ceiling and results[].runs the repetitions made',
    clientUrl: options.clientUrl,
    startedApps: {},
    quietWaits: noQuietWaits(),
    keepWarmNodeFlags: KEEP_WARM_NODE_FLAGS,
    deadlines: {
      rule:
        `each call: ${DEADLINE_RULE.floorMs} ms + ${DEADLINE_RULE.perRowMs} ms per row it moves (rows × requests) ` +
        `+ ${DEADLINE_RULE.perRowPerRttMs} ms per row per ms of the network profile's RTT, unless --deadline-ms`,
      override: options.deadlineMs,
      perCaseMs: Object.fromEntries(plan.map((p) => [p.record.id, p.deadlineMs])),
    },
    failurePolicy:
      `a set of apps that cannot start, dies or stops answering its readiness check is started again up to ${RESTARTS_PER_SET} time(s) ` +
      '(never with --client-url); the visits it cannot serve are recorded as failed with the reason (results[].failure); ' +
      'a port the system picked that is taken before an app listens on it is picked again (startedApps[].portAttempts)',
    restarts: [],
  };
}

/** How long the run should take, from the last runs in the results folder (measure/estimate.ts), and the longest it can take (deadlines.ts). */
function describeDuration(options: BenchOptions, plan: readonly PlannedCase[]): { estimate: RunEstimate; boundMs: number } {
  const sets = options.clientUrl ? 0 : new Set(plan.map(appSetKey)).size;
  const stages = options.networks.filter((n) => usesStage(n.network)).length;
  const rtt = new Map(options.networks.map((n) => [n.name, rttMs(n.network)]));
  const history: StoredRun[] = [];
  for (const dir of listRuns(options.out)) {
    try {
      history.push(readRun(dir));
    } catch {
      // An unreadable past run only leaves the estimate to the others (the index names it).
    }
  }
  const model = { visitMs: (p: PlannedCase) => expectedCostMs(p, rtt.get(p.network) ?? 0), setStartMs: SET_START_MS, stageBuildMs: STAGE_BUILD_MS };
  return { estimate: estimateRun(plan, sets, stages, history, model), boundMs: runBoundMs(plan, (p) => p.deadlineMs, sets, stages) };
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

/** With --client-url, the options with the variant the running client reports (client-identity.ts) and its deployment's network. */
async function withClientVariant(options: BenchOptions): Promise<BenchOptions> {
  if (!options.clientUrl) return options;
  const token = givenToken();
  process.stderr.write(`${describeGivenToken(options.clientUrl, token)}\n`);
  let info: Record<string, unknown>;
  try {
    info = await new HttpClientDriver(options.clientUrl, token).describe();
  } catch (error) {
    throw new Error(`cannot reach the client at ${options.clientUrl} (GET /bench/info: ${errorText(error)})`);
  }
  const requested = options.variantsGiven ? options.variants.map((v) => v.id) : null;
  // The cells are labelled with the Node the running client reports, not the one the bench would have started.
  const node = typeof info.node === 'string' ? info.node : 'unknown';
  const runtimes = [{ name: runtimeNameOf(node), version: node.replace(/^v/, ''), why: 'the running client (--client-url)' }];
  // Its network is the deployment's (the Docker bridge, the pod network), not loopback (deployed-network.ts).
  const clientUrl = options.clientUrl;
  const networks = options.networks.map((n) => deployedNetwork(n, clientUrl));
  return { ...options, networks, runtimes, variants: [variantOfClient(info, options.clientUrl, requested)] };
}

/**
 * Each runtime's `node`, found or fetched before the run's first call (node-binaries.ts); a runtime that
 * cannot be had stops the run here, with the package to fetch. Not needed when the apps are not ours.
 */
function prepareRuntimes(options: BenchOptions): Map<string, NodeBinary> {
  const binaries = new Map<string, NodeBinary>();
  if (options.clientUrl) return binaries;
  for (const runtime of options.runtimes) {
    const binary = resolveNodeBinary(runtime, { installed: path.join(WORKSPACE_ROOT, 'node_modules', '.bin', 'node') });
    if (binary.source !== 'bench') process.stderr.write(`bench: Node ${runtime.version} (--node ${runtime.name}): ${binary.path} (${binary.source === 'fetched' ? 'fetched now' : binary.source === 'project' ? "the project's, from npm ci" : 'cached'})\n`);
    binaries.set(runtime.name, binary);
  }
  return binaries;
}

async function main(line: CommandLine<typeof BENCH_ALL_COMMAND.options>, argv: readonly string[]): Promise<number> {
  const options = await withClientVariant(optionsOf(line));
  checkNetworks(options.networks);
  const binaries = prepareRuntimes(options);
  const plan = planCases(options);
  const startedAt = new Date();
  const runDir = createRunFolder(options.out, startedAt);
  const { estimate, boundMs } = describeDuration(options, plan);
  process.stderr.write(
    `bench: ${plan.length} visit(s) × ${options.transports.join(' + ')}, repetitions interleaved; ` +
      `writing ${shownRunFolder(runDir, options.out)}\n` +
      `bench: ${describeEstimate(estimate, boundMs, shownRunFolder(options.out, options.out))}\n`,
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

  const visitsDone: Record<string, number> = {};
  const doc: RunDocument = {
    schemaVersion: SCHEMA_VERSION,
    incomplete: true,
    provenance: { ...collectProvenance(WORKSPACE_ROOT, argv), pinning, clients: {} },
    // plannedCells and visitsDone let bench:compare name what a killed run lacks (results/completeness.ts).
    settings: { ...describeSettings(options, plan, startedAt), expectedMs: Math.round(estimate.ms), expectedFrom: estimate.runs, boundMs, plannedCells: plannedCells(plan), visitsDone },
    results: [],
  };
  // Every export of the run, rewritten after each case so an interrupted run still has them all.
  const save = () => writeExports(runDir, doc, RUN_EXPORTERS);
  save();
  pointLatestAt(options.out, runDir);
  writeIndex(options.out, renderIndex, writeFileAtomic);

  const progress = new Progress(plan, estimate);
  let done = 0;
  const pool = new CellPool({
    networks: options.networks.map((n) => n.name),
    runtimes: options.runtimes.map((r) => r.name),
    securities: options.securities.map((s) => s.name),
    variants: options.variants.map((v) => v.id),
    cases: options.cases.map((c) => c.id),
    transports: options.transports,
  });
  const skipped: Record<string, string> = {};
  doc.settings.skippedVariants = skipped;
  // One throwaway CA per run, made before the first TLS visit and removed at the end (or at exit).
  const secure = options.securities.some((s) => s.tls);
  const noOpenssl = secure ? opensslMissing() : null;
  if (noOpenssl) {
    process.stderr.write(`bench: ${noOpenssl}\n`);
    return 2;
  }
  const certificates = secure ? new RunCertificates() : undefined;
  const hooks: RunnerHooks = {
    onCaseStart: (planned) => progress.caseStart(planned, done),
    onRepetition: (planned, repetition) => progress.repetition(planned, repetition),
    onCaseDone: (raws, _index, _total, planned) => {
      progress.caseDone(planned, raws, done++, plan.length);
      pool.add(raws);
      for (const raw of raws) visitsDone[cellLabel(raw)] = (visitsDone[cellLabel(raw)] ?? 0) + 1;
      doc.results = pool.results().map(toCaseResult);
      save();
    },
  };
  for (const network of options.networks) {
    if (abort.signal.aborted) break;
    const across = plan.filter((p) => p.network === network.name && !(p.variant in skipped));
    await acrossNetwork(network, across, doc, hooks, save, async (placement) => {
      for (const runtime of options.runtimes) {
        const node = binaries.get(runtime.name);
        const context: VariantContext = { workspaceRoot: WORKSPACE_ROOT, options, doc, runDir, pinning, signal: abort.signal, hooks, save, placement, node, certificates };
        for (const security of options.securities) for (const variant of options.variants) {
          if (abort.signal.aborted) break;
          if (!options.clientUrl && !(variant.id in skipped)) {
            const why = prepareVariant(variant);
            if (why) {
              skipped[variant.id] = why;
              process.stderr.write(`bench: variant ${variant.id} skipped: ${why}\n`);
            }
          }
          if (variant.id in skipped) continue;
          await runVariant(across.filter((p) => p.runtime === runtime.name && p.security === security.name && p.variant === variant.id), variant, context);
        }
      }
    });
  }

  certificates?.remove();
  doc.incomplete = done < plan.filter((p) => !(p.variant in skipped)).length;
  doc.provenance.finishedAt = new Date().toISOString();
  save();
  writeIndex(options.out, renderIndex, writeFileAtomic);

  const end = renderRunEnd(doc, { folder: shownRunFolder(runDir, options.out), files: exportedFiles(RUN_EXPORTERS), failures: failureSummary(doc.results) });
  // The verdict first: stdout may be a pipe, so its write is let through before the paths on stderr.
  await new Promise((resolve) => process.stdout.write(end.stdout, resolve));
  process.stderr.write(end.stderr);
  const failed = doc.results.filter((r) => !r.ok).length;
  if (abort.signal.aborted) return 130;
  return failed > 0 || doc.incomplete ? 1 : 0;
}

if (require.main === module) runTool(BENCH_ALL_COMMAND, main);
