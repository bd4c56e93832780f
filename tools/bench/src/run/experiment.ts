// The one run frame: bench:all (the matrix, run/matrix.ts) and every suite (suites/common/) are each an
// Experiment, and runExperiment walks its axes (network × runtime × security) and owns what every run
// needs around its measurements: the run folder and its document, marked incomplete until the end,
// the signals, the cleanup, the network prerequisites, the exports and the runs index. What differs
// between the tools is data on the experiment (folders, runtimes, interrupt), stated and tested.
import * as path from 'node:path';
import { createRunFolder, writeIndex, writeFileAtomic } from '../model';
import { writeExports, type Exporter } from '../export';
import { renderIndex } from '../compare';
import { errorText } from '../cli';
import type { RunAxes, RuntimeRecord } from '../plan';
import type { PathProfile } from '../network/path';
import type { SecurityRecord } from '@bench/config';
import { checkNetworks } from './network-runs';
import { sweepDeadRuns } from './dead-runs';
import { prepareRuntimes, rerunPerRuntime, runsInOwnProcess } from './experiment-runtimes';
import type { NodeBinary } from './node-binaries';

/**
 * Which networks and security modes share a run folder (one document): 'one-per-run' puts them all in
 * one document (bench:all: its reports compare networks, runtimes and security modes within it);
 * 'one-per-network' writes a folder per network and security mode (a suite: its document and reports
 * describe one network, one runtime and one security mode).
 */
export type FolderPolicy = 'one-per-run' | 'one-per-network';

/**
 * How the runtime axis is walked: 'apps' in this process, starting the apps on each runtime's node
 * (bench:all: the client app makes the calls); 'process' by running the tool again on each runtime's
 * node, one after the other (a suite: its own process makes the calls), each with a folder of its own.
 */
export type RuntimePolicy = 'apps' | 'process';

/**
 * What SIGINT / SIGTERM do, besides marking the document incomplete and exiting 130: 'after-visit'
 * aborts the run's signal, so the visit in progress ends and every export is written with what was
 * measured; 'now' stops what is running (servers, stage) and exits at once, results.json as last saved.
 */
export type InterruptPolicy = 'after-visit' | 'now';

export interface ExperimentOptions extends RunAxes {
  /** The command line as given (provenance, and the runtime's own process). */
  argv: readonly string[];
  /** Whether the bench starts the apps (not with --client-url): only then are the runtimes fetched. */
  startsApps: boolean;
}

/** What the frame gives a run folder's measurement. */
export interface FolderRun {
  runDir: string;
  startedAt: Date;
  /** The networks this folder measures across (all, or one: the experiment's FolderPolicy). */
  networks: readonly PathProfile[];
  /** The security modes it measures under (all, or one: the experiment's FolderPolicy). */
  securities: readonly SecurityRecord[];
  /** Aborted on SIGINT / SIGTERM. */
  signal: AbortSignal;
  /** One line of progress on stderr, prefixed with the tool (and the network, when each has a folder). */
  log(line: string): void;
  /** Rewrites the exports written while measuring, from the document as it is. */
  save(): void;
  /** Registers what a signal or the end must stop (servers, a stage, the run's keys); returns its removal. */
  keep(stop: () => unknown): () => void;
}

/** One step of the walk: a network (with its placement), a runtime, a security mode. */
export interface Slice<P> {
  network: PathProfile;
  placement: P | undefined;
  runtime: RuntimeRecord;
  /** The runtime's `node` when the bench starts the apps. */
  node: NodeBinary | undefined;
  security: SecurityRecord;
}

/** A run folder's measurement: its document and how it is measured, closed and reported. */
export interface ExperimentFolder<D, P> {
  /** The document; rewritten by FolderRun.save and marked incomplete until close. */
  doc: D;
  /** Runs `inner` across one network (its stage, its path, its placement for the apps). */
  across(network: PathProfile, inner: (placement: P | undefined) => Promise<void>): Promise<void>;
  measure(slice: Slice<P>): Promise<void>;
  /** The document once the walk ended (complete or not) and the exit code it earns (130 wins over it). */
  close(interrupted: boolean): { doc: D; code: number };
  /** Prints the run's end (after every export and the index are written). */
  report(doc: D): Promise<void>;
}

export interface Experiment<D, P> {
  /** The prefix of its messages: `bench`, `echo`. */
  tool: string;
  /** The run folder's name before its timestamp (`echo-…`); none for bench:all. */
  folderPrefix?: string;
  folders: FolderPolicy;
  runtimes: RuntimePolicy;
  interrupt: InterruptPolicy;
  /** The files written after every step (`measuring`) and at the end. */
  exporters: { measuring: readonly Exporter<D>[]; end: readonly Exporter<D>[] };
  open(run: FolderRun): ExperimentFolder<D, P>;
}

/** Runs `experiment` over the options' axes; the exit code is the worst folder's (130 stops the rest). */
export async function runExperiment<D, P>(experiment: Experiment<D, P>, options: ExperimentOptions): Promise<number> {
  checkNetworks(options.networks);
  sweepBeforeRun(experiment.tool);
  const binaries = prepareRuntimes(experiment.tool, options);
  if (experiment.runtimes === 'process' && runsInOwnProcess(binaries)) return rerunPerRuntime(experiment.tool, binaries, options.argv);
  let worst = 0;
  for (const group of foldersOf(experiment.folders, options)) {
    const code = await runFolder(experiment, group, options, binaries);
    worst = Math.max(worst, code);
    if (code === 130) break;
  }
  return worst;
}

/** What older runs killed with SIGKILL left (dead-runs.ts), removed before this one starts anything; said when there was any. */
function sweepBeforeRun(tool: string): void {
  const { removed, failures } = sweepDeadRuns();
  if (removed.length) process.stderr.write(`${tool}: removed what killed runs left: ${removed.join(', ')}\n`);
  if (failures.length) process.stderr.write(`${tool}: could not remove all that killed runs left: ${failures.join('; ')}\n`);
}

/** What one run folder walks: its networks and security modes. */
interface FolderAxes {
  networks: readonly PathProfile[];
  securities: readonly SecurityRecord[];
}

/** The run folders of a policy, in walk order: one for everything, or one per network and security mode. */
function foldersOf(policy: FolderPolicy, options: ExperimentOptions): FolderAxes[] {
  if (policy === 'one-per-run') return [{ networks: options.networks, securities: options.securities }];
  return options.networks.flatMap((network) => options.securities.map((security) => ({ networks: [network], securities: [security] })));
}

/** One run folder: its document from the first write to the last, whatever stops the walk. */
async function runFolder<D, P>(experiment: Experiment<D, P>, { networks, securities }: FolderAxes, options: ExperimentOptions, binaries: ReadonlyMap<string, NodeBinary>): Promise<number> {
  const startedAt = new Date();
  const runDir = createRunFolder(options.out, startedAt, experiment.folderPrefix);
  const several = experiment.folders === 'one-per-network' ? [options.networks.length > 1 ? networks[0].name : '', options.securities.length > 1 ? securities[0].name : ''].filter(Boolean) : [];
  const named = several.length > 0 ? ` (${several.join(', ')})` : '';
  const log = (line: string) => process.stderr.write(`${experiment.tool}${named}: ${line}\n`);
  const abort = new AbortController();
  const live = new Set<() => unknown>();
  const stopLive = async () => {
    for (const stop of [...live].reverse()) await stop();
    live.clear();
  };
  const run: FolderRun = {
    runDir,
    startedAt,
    networks,
    securities,
    signal: abort.signal,
    log,
    save: () => writeExports(runDir, folder.doc, experiment.exporters.measuring),
    keep: (stop) => {
      live.add(stop);
      return () => live.delete(stop);
    },
  };
  const folder: ExperimentFolder<D, P> = experiment.open(run);
  run.save();
  writeIndex(options.out, renderIndex, writeFileAtomic);
  const kept = `${path.relative(process.cwd(), runDir)}/${experiment.exporters.measuring[0].file}`;
  const interrupt = (signal: NodeJS.Signals) => {
    const again = abort.signal.aborted;
    process.stderr.write('\n');
    log(`${signal}, stopping; what was measured stays in ${kept} (marked incomplete)`);
    abort.abort();
    // A second signal while 'now' is stopping things changes nothing: the exit follows the first.
    if (experiment.interrupt === 'now' && !again) void stopLive().finally(() => process.exit(130));
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  try {
    await walk(folder, { networks, securities }, options, binaries, abort.signal);
  } catch (error) {
    log(`failed: ${errorText(error)}`);
    log(`what was measured is in ${kept} (marked incomplete)`);
    return 1;
  } finally {
    process.removeListener('SIGINT', interrupt);
    process.removeListener('SIGTERM', interrupt);
    await stopLive();
  }
  const { doc, code } = folder.close(abort.signal.aborted);
  writeExports(runDir, doc, experiment.exporters.end);
  writeIndex(options.out, renderIndex, writeFileAtomic);
  await folder.report(doc);
  return abort.signal.aborted ? 130 : code;
}

/** The axes in their order: each network, and across it each runtime and each security mode. */
async function walk<D, P>(folder: ExperimentFolder<D, P>, { networks, securities }: FolderAxes, options: ExperimentOptions, binaries: ReadonlyMap<string, NodeBinary>, signal: AbortSignal): Promise<void> {
  for (const network of networks) {
    if (signal.aborted) break;
    await folder.across(network, async (placement) => {
      for (const runtime of options.runtimes) {
        for (const security of securities) {
          if (signal.aborted) return;
          await folder.measure({ network, placement, runtime, node: binaries.get(runtime.name), security });
        }
      }
    });
  }
}
