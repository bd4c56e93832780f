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
import { resolveNodeBinary, type NodeBinary, runtimeOfProcess, networkRecord, onStage } from '../../run';
import { coresNote, type SuiteDocument } from './document';
import { startSuiteServers, type SuiteServers } from './servers';
import { checkPrerequisites, findProfile, usesStage, type NetworkProfile, type Stage } from '../../network';

export const WORKSPACE_ROOT = path.resolve(__dirname, '../../../../..');

export interface SuiteContext<S> {
  settings: S;
  preset: SuitePreset;
  runDir: string;
  /** null for suites that need no network. */
  servers: SuiteServers | null;
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
  const networks = args.networks.map((name) => findProfile(name));
  if (networks.some(usesStage) && !definition.needsServers) throw new UsageError(`--network: bench:${suite} calls no server, so it runs the same on any network`);
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

async function runOnNetwork<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>, args: SuiteArgs<S>, network: NetworkProfile, argv: readonly string[]): Promise<number> {
  const suite = definition.spec.suite;
  const log = (line: string) => process.stderr.write(`${suite}${args.networks.length > 1 ? ` (${network.name})` : ''}: ${line}\n`);
  const missing = checkPrerequisites(network);
  if (missing) {
    process.stderr.write(`${suite}: --network ${network.name}: ${missing}\n`);
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
    settings: { ...args.settings, startedAt: startedAt.toISOString(), profile: args.preset, network: network.name, node: args.runtimes[0].name, cpuCount, cores: coresNote(cpuCount) },
    plan: definition.plan(args.settings),
    results: null,
  };
  write(runDir, doc);
  // What is up, for Ctrl-C and the end to stop: the servers first, then the stage they run in.
  const live: { servers: SuiteServers | null; stage: Stage | null } = { servers: null, stage: null };
  const stopAll = async () => {
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
        log,
        save,
        progress: (line, partial) => {
          log(line);
          save(partial);
        },
      };
      return await definition.run(context);
    } finally {
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
      doc.provenance = { ...doc.provenance, networks: { [network.name]: record } };
      results = await onStage(network, record, log, () => write(runDir, doc), (stage) => {
        live.stage = stage;
        // Every suite's page prints the setup note: it says across what the calls went, and how.
        doc.settings.cores +=
          `. Across the ${network.name} network stage (${describeCalibration(record.calibration!)}): the servers run in its server namespace and ` +
          "the bench's calls reach them through the stage's forwarder in the client namespace, so a new connection's handshake crosses the " +
          'stage but the "connect" figures time only the hop to the forwarder';
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

/** The entry point of a suite's main.ts: its help, its command line, its run, and exit with its code. */
export function suiteMain<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>): void {
  runTool(suiteCommand(definition.spec), (line, argv) => runSuite(definition, line, argv), { stack: true });
}
