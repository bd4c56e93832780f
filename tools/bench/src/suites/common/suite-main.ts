// What every suite's entry point does around its measurements: read the options, make a new run
// folder, start the servers when the suite needs them, write results.json after every cell and
// results.md + report.html at the end, stop the servers whatever happens.
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { collectProvenance, writeIndex, createRunFolder, writeFileAtomic, describeCalibration } from '../../results';
import { exportedFiles, JSON_EXPORTER, writeExports, type Exporter } from '../../export';
import { renderIndex } from '../../compare';
import { runTool, UsageError, errorText, type CommandLine, type OptionTable } from '../../cli';
import { suiteArgsOf, suiteCommand, withOneRuntime, type SuiteArgs, type SuiteOptionsSpec, type SuitePreset } from './args';
import { resolveNodeBinary, type NodeBinary, runtimeOfProcess, networkRecord, onStage, checkedPath, calibratedRttMs } from '../../run';
import { coresNote, type SuiteDocument } from './document';
import { startSuiteServers, type SuiteServers } from './servers';
import { checkPrerequisites, findPath, pathPrerequisites, PathProfileError, ProfileError, startPath, usesStage, type ActivePath, type PathCounters, type PathProfile, type Stage } from '../../network';
import { countersFromParent, readJob, runInClientNamespace, tellParent, type PathContext, type StageJob } from './stage-job';

export const WORKSPACE_ROOT = path.resolve(__dirname, '../../../../..');

export interface SuiteContext<S> {
  settings: S;
  preset: SuitePreset;
  runDir: string;
  /** null for suites that need no network. */
  servers: SuiteServers | null;
  /** The network stage the run is on (null on loopback), for suites that place their own apps on it (usesStage). */
  stage: Stage | null;
  /** The values of the suite's extraOptions, by flag. */
  extras: Record<string, unknown>;
  /** Records more provenance (what the suite built: replicas, rules) in results.json. */
  addProvenance(entries: Record<string, unknown>): void;
  /** The path across a network stage (the calls are then made from its client namespace); null on loopback. */
  path: PathContext | null;
  /** One line of progress on stderr. */
  log(line: string): void;
  /** Rewrites results.json (atomically, marked incomplete) with what has been measured so far. */
  save(partial: unknown): void;
  /** Both: a line of progress, then results.json with what has been measured so far. */
  progress(line: string, partial: unknown): void;
}

export interface SuiteDefinition<S extends Record<string, number>, R> {
  spec: SuiteOptionsSpec<S>;
  needsServers: boolean;
  /** The suite starts its own apps on the network stage (context.stage) rather than the blog's servers. */
  usesStage?: boolean;
  /** Why the options cannot run (a usage error: exit 2), or null; checked before anything starts. */
  checkArgs?(args: SuiteArgs<S>, networks: readonly PathProfile['network'][]): string | null;
  /** The data records this run uses, recorded in results.json as `plan`. */
  plan(settings: S): Record<string, unknown>;
  run(context: SuiteContext<S>): Promise<R>;
  /** Why the measured results fail the suite's own check (exit 1 once everything is written), or null. */
  failure?(results: R): string | null;
  markdown(doc: SuiteDocument<S, R>): string;
  html(doc: SuiteDocument<S, R>): string;
}

/** results.json alone: what a suite rewrites while it measures. */
function write<S, R>(runDir: string, doc: SuiteDocument<S, R>): void {
  writeExports(runDir, doc, [JSON_EXPORTER]);
}

/** A suite's files: the document, then its Markdown and its page. */
function exportersOf<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>): Exporter<SuiteDocument<S, R>>[] {
  return [JSON_EXPORTER, { file: 'results.md', render: definition.markdown }, { file: 'report.html', render: definition.html }];
}

/**
 * Runs the suite once per --node runtime and --network profile, one after the other, each in a run
 * folder of its own; the exit code is the worst of them (a failed one does not stop the next). The
 * suite's own process makes the calls, so a runtime other than the one running this process gets a
 * process of its own on that runtime's node (which starts the servers on it too). Every runtime's node
 * is found or fetched before the first call.
 */
export async function runSuite<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>, line: CommandLine<OptionTable>, argv: readonly string[]): Promise<number> {
  const suite = definition.spec.suite;
  const args = suiteArgsOf(definition.spec, line);
  let networks: PathProfile[];
  try {
    networks = args.networks.map((name) => findPath(name));
  } catch (error) {
    if (error instanceof PathProfileError || error instanceof ProfileError) throw new UsageError(error.message);
    throw error;
  }
  const wrong = definition.checkArgs?.(args, networks.map((p) => p.network)) ?? null;
  if (wrong) throw new UsageError(wrong);
  if (networks.some((p) => usesStage(p.network)) && !definition.needsServers && !definition.usesStage) throw new UsageError(`--network: bench:${suite} calls no server, so it runs the same on any network`);
  const binaries: NodeBinary[] = args.runtimes.map((runtime) => resolveNodeBinary(runtime, { installed: path.join(WORKSPACE_ROOT, 'node_modules', '.bin', 'node') }));
  if (binaries.length > 1 || binaries[0].source !== 'bench') {
    let worst = 0;
    for (const binary of binaries) {
      process.stderr.write(`${suite}: on Node ${binary.version} (--node ${binary.runtime}): ${binary.path}\n`);
      const child = spawnSync(binary.path, [process.argv[1], ...withOneRuntime(argv, binary.runtime)], { stdio: ['ignore', 'inherit', 'inherit'] });
      const code = child.status ?? (child.signal === 'SIGINT' ? 130 : 1);
      worst = Math.max(worst, code);
      if (code === 130) break;
    }
    return worst;
  }
  let worst = 0;
  for (const network of networks) {
    const code = await runOnNetwork(definition, args, network, argv);
    worst = Math.max(worst, code);
    if (code === 130) break;
  }
  return worst;
}

async function runOnNetwork<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>, args: SuiteArgs<S>, pathProfile: PathProfile, argv: readonly string[]): Promise<number> {
  const suite = definition.spec.suite;
  const network = pathProfile.network;
  const log = (line: string) => process.stderr.write(`${suite}${args.networks.length > 1 ? ` (${pathProfile.name})` : ''}: ${line}\n`);
  const missing = checkPrerequisites(network) ?? pathPrerequisites(pathProfile);
  if (missing) {
    process.stderr.write(`${suite}: --network ${pathProfile.name}: ${missing}\n`);
    return 1;
  }
  const startedAt = new Date();
  const runDir = createRunFolder(args.out, startedAt, suite);
  const cpuCount = os.cpus().length;
  const doc: SuiteDocument<S, R | null> = {
    schemaVersion: 2,
    suite,
    incomplete: true,
    provenance: collectProvenance(WORKSPACE_ROOT, argv),
    settings: { ...args.settings, startedAt: startedAt.toISOString(), profile: args.preset, network: pathProfile.name, node: args.runtimes[0].name, cpuCount, cores: coresNote(cpuCount) },
    plan: definition.plan(args.settings),
    results: null,
  };
  write(runDir, doc);
  // What is up, for Ctrl-C and the end to stop: the servers first, then the stage they run in.
  const live: { servers: SuiteServers | null; stage: Stage | null; path: ActivePath | null } = { servers: null, stage: null, path: null };
  const stopAll = async () => {
    live.path?.stop();
    live.path = null;
    await live.servers?.stop();
    live.servers = null;
    await live.stage?.stop();
  };
  // Ctrl-C: keep what was measured (results.json stays marked incomplete) and stop the servers.
  const interrupted = () => {
    log(`interrupted; partial results in ${path.relative(process.cwd(), runDir)}/results.json`);
    void stopAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  // The servers (in the stage's server namespace when there is one), then the suite's calls; the servers stop before the stage.
  const measure = async (): Promise<R> => {
    try {
      if (definition.needsServers) {
        log(`starting server-a and server-b (blog variant)${live.stage ? ` in the ${network.name} stage's server namespace` : ''} …`);
        live.servers = await startSuiteServers(WORKSPACE_ROOT, runDir, live.stage ?? undefined);
        // What the servers run on, read from their processes (the calls are made by this process: provenance.bench).
        const apps = Object.fromEntries(Object.entries(live.servers.pids).map(([app, pid]) => [app, runtimeOfProcess(pid)]));
        doc.provenance = { ...doc.provenance, apps };
        write(runDir, doc);
      }
      const save = (partial: unknown) => write(runDir, { ...doc, results: partial });
      const context: SuiteContext<S> = {
        settings: args.settings,
        preset: args.preset,
        runDir,
        servers: live.servers,
        stage: live.stage,
        extras: args.extras,
        addProvenance: (entries) => {
          doc.provenance = { ...doc.provenance, ...entries };
          write(runDir, doc);
        },
        path: null,
        log,
        save,
        progress: (line, partial) => {
          log(line);
          save(partial);
        },
      };
      if (!live.stage || !live.servers) return await definition.run(context);
      // Across a stage: the path's parts, checked, then the calls from the client namespace.
      const rttMs = calibratedRttMs(doc.provenance.networks![pathProfile.name]);
      if (pathProfile.features.length > 0) {
        log(`building the path: ${pathProfile.features.join(', ')} …`);
        live.path = await startPath(live.stage, pathProfile, live.servers.ports);
        await checkedPath(live.stage, live.path, rttMs, log, (entry) => {
          doc.provenance.networks![pathProfile.name].path = entry;
          write(runDir, doc);
        });
      }
      const activePath = live.path;
      const counters = async (): Promise<PathCounters> => (activePath ? activePath.counters() : { dns: null, envoy: null });
      return await runInClientNamespace<S, R>(live.stage, jobOf(args, runDir, live.servers, activePath, pathProfile, rttMs), { log, save, counters });
    } finally {
      live.path?.stop();
      live.path = null;
      await live.servers?.stop();
      live.servers = null;
    }
  };
  try {
    log(`writing ${path.relative(process.cwd(), runDir)}/`);
    let results: R;
    if (!usesStage(network)) results = await measure();
    else {
      const record = networkRecord(network);
      doc.provenance = { ...doc.provenance, networks: { [pathProfile.name]: record } };
      results = await onStage(network, record, log, () => write(runDir, doc), (stage) => {
        live.stage = stage;
        // Every suite's page prints the setup note: it says across what the calls went, and how.
        if (definition.needsServers) doc.settings.cores +=
          `. Across the ${pathProfile.name} network stage (${describeCalibration(record.calibration!)}): the servers run in the stage's server namespace and ` +
          "the calls are made by a process of the bench in its client namespace, so every connection's handshake and lookup crosses the stage";
        write(runDir, doc);
        return measure();
      });
      live.stage = null;
    }
    const done: SuiteDocument<S, R> = { ...doc, incomplete: false, provenance: { ...doc.provenance, finishedAt: new Date().toISOString() }, results };
    const exporters = exportersOf(definition);
    writeExports(runDir, done, exporters);
    // results/index.html lists suite runs beside the blog's.
    writeIndex(args.out, renderIndex, writeFileAtomic);
    process.stdout.write(definition.markdown(done));
    log(`results in ${path.relative(process.cwd(), runDir)}/ (${exportedFiles(exporters)})`);
    const failure = definition.failure?.(results) ?? null;
    if (failure) log(`failed its check: ${failure}`);
    return failure ? 1 : 0;
  } catch (error) {
    log(`failed: ${errorText(error)}`);
    log(`what was measured is in ${path.relative(process.cwd(), runDir)}/results.json (marked incomplete)`);
    return 1;
  } finally {
    process.removeListener('SIGINT', interrupted);
    process.removeListener('SIGTERM', interrupted);
    await stopAll();
  }
}

function jobOf<S>(args: SuiteArgs<S>, runDir: string, servers: SuiteServers, activePath: ActivePath | null, pathProfile: PathProfile, rttMs: number): StageJob<S> {
  return {
    settings: args.settings,
    preset: args.preset,
    runDir,
    servers: { serverAUrl: activePath?.serverAUrl ?? servers.serverAUrl, serverBAddress: activePath?.serverBAddress ?? servers.serverBAddress, pids: servers.pids, ports: servers.ports },
    path: { name: pathProfile.name, features: pathProfile.features, rttMs },
  };
}

/** The measuring part in the client namespace: the suite's run with what the job file says, reporting over IPC. */
async function runJob<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>, job: StageJob<S>): Promise<void> {
  const save = (partial: unknown) => tellParent({ type: 'save', partial });
  const log = (line: string) => tellParent({ type: 'log', line });
  const context: SuiteContext<S> = {
    settings: job.settings,
    preset: job.preset as SuitePreset,
    runDir: job.runDir,
    servers: { ...job.servers, stop: async () => undefined },
    path: { ...job.path, counters: countersFromParent() },
    // Suites that place their own apps on the stage (usesStage) run in the bench's process, never as a job.
    stage: null,
    extras: {},
    addProvenance: () => undefined,
    log,
    save,
    progress: (line, partial) => {
      log(line);
      save(partial);
    },
  };
  try {
    tellParent({ type: 'done', results: await definition.run(context) });
  } catch (error) {
    tellParent({ type: 'error', message: errorText(error) });
  }
  process.disconnect?.();
}

/** The entry point of a suite's main.ts: its help, its command line, its run, and exit with its code. */
export function suiteMain<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>): void {
  const job = readJob<S>();
  if (job) return void runJob(definition, job);
  runTool(suiteCommand(definition.spec), (line, argv) => runSuite(definition, line, argv), { stack: true });
}
