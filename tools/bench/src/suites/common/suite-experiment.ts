// A suite as an experiment of the one run frame (run/experiment.ts): a run folder per network and
// security mode (its document and reports describe one network, one runtime and one security mode),
// the suite run again on each runtime's node (its own process makes the calls), and a signal stops the
// servers and exits at once. This says what a suite measures across one network: the servers (under
// TLS with the run's throwaway CA, as bench:all's), the path, then the suite's calls.
import * as os from 'node:os';
import * as path from 'node:path';
import { collectProvenance, describeCalibration, describeProfiledRun, type PathCounters } from '../../model';
import { cpuProfileCsvExporter, exportedFiles, JSON_EXPORTER, renderCpuProfileMarkdown, type Exporter } from '../../export';
import { UsageError } from '../../cli';
import type { SecurityRecord } from '@bench/config';
import { brokersOf, type TransportName } from '@bench/transports';
import { brokersToStart, runExperiment, runtimeOfProcess, networkRecord, onStage, checkedPath, calibratedRttMs, serverIdentity, startRunBrokers, type Experiment, type ExperimentFolder, type FolderRun, type RunBrokers, type StartOptions } from '../../run';
import { opensslMissing, RunCertificates } from '../../security';
import { usesStage, type Stage } from '../../network/stage';
import { startPath, type ActivePath, type PathProfile } from '../../network/path';
import type { SuiteArgs } from './args';
import { coresNote, type SuiteDocument } from './document';
import { startSuiteServers, type SuiteServers } from './servers';
import { runInClientNamespace, type StageJob } from './stage-job';
import { SUITE_PROCESS, SuiteProfiling, unprofiled, type ProfiledUnit } from './profiling';
import { WORKSPACE_ROOT, type SuiteContext, type SuiteDefinition, type SuiteSecurity } from './suite-definition';

type Doc<S, R> = SuiteDocument<S, R | null>;

/** Why the suite cannot run with these arguments (a usage error, exit 2), checked before anything starts. */
export function checkSuiteArgs<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>, args: SuiteArgs<S>): void {
  const suite = definition.spec.suite;
  const wrong = definition.checkArgs?.(args, args.networks.map((p) => p.network)) ?? null;
  if (wrong) throw new UsageError(wrong);
  const callsServers = definition.needsServers || definition.usesStage === true;
  if (args.networks.some((p) => usesStage(p.network)) && !callsServers) throw new UsageError(`--network: bench:${suite} calls no server, so it runs the same on any network`);
  const secure = args.securities.filter((s) => s.tls).map((s) => s.name);
  if (secure.length === 0) return;
  if (!callsServers) throw new UsageError(`--security ${secure.join(',')}: bench:${suite} calls no server, so it has no connection to secure`);
  if (!definition.needsServers && !definition.securesOwnApps) throw new UsageError(`--security ${secure.join(',')}: bench:${suite}'s own apps listen in cleartext only; bench:${suite} takes --security plain`);
  // As bench:all's: a mesh's sidecars speak mTLS between them and plaintext to the apps.
  const meshed = args.networks.find((p) => p.features.includes('mesh'));
  if (meshed) throw new UsageError(`--network ${meshed.name} with --security ${secure.join(',')}: the mesh's sidecars speak mTLS between them and plaintext to the apps; run it with --security plain`);
  const missing = opensslMissing();
  if (missing) throw new UsageError(missing);
}

/** Runs the suite through the frame: each network and runtime in a run folder of its own; the exit code is the worst of them. */
export function runSuite<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>, args: SuiteArgs<S>, argv: readonly string[]): Promise<number> {
  checkSuiteArgs(definition, args);
  return runExperiment(suiteExperiment(definition, args, argv), { ...args, argv, startsApps: true });
}

function exportersOf<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>): Exporter<Doc<S, R>>[] {
  const files = (definition.files ?? []).map((f) => ({ file: f.file, render: (doc: Doc<S, R>) => f.render(doc as SuiteDocument<S, R>) }));
  return [
    JSON_EXPORTER,
    { file: 'results.md', render: (doc) => suiteMarkdown(definition, doc as SuiteDocument<S, R>) },
    { file: 'report.html', render: (doc) => definition.html(doc as SuiteDocument<S, R>) },
    cpuProfileCsvExporter((doc) => doc.cpuProfiles ?? []),
    ...files,
  ];
}

/** The suite's results.md, and under --cpu-profile bench:all's section on its units' profiles (the page's is renderSuitePage's). */
function suiteMarkdown<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>, doc: SuiteDocument<S, R>): string {
  const profiles = renderCpuProfileMarkdown(doc.cpuProfiles ?? []);
  if (profiles.length === 0) return definition.markdown(doc);
  return [definition.markdown(doc).trimEnd(), '', `**${describeProfiledRun(doc.settings)}**`, '', ...profiles].join('\n');
}

export function suiteExperiment<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>, args: SuiteArgs<S>, argv: readonly string[]): Experiment<Doc<S, R>, Stage> {
  const suite = definition.spec.suite;
  return {
    tool: suite,
    folderPrefix: suite,
    folders: 'one-per-network',
    runtimes: 'process',
    interrupt: 'now',
    // results.json alone while measuring; its Markdown and its page once the results are whole.
    exporters: { measuring: [JSON_EXPORTER], end: exportersOf(definition) },
    open: (run) => openSuite(definition, args, argv, run),
  };
}

function openSuite<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>, args: SuiteArgs<S>, argv: readonly string[], run: FolderRun): ExperimentFolder<Doc<S, R>, Stage> {
  const pathProfile = run.networks[0];
  const security = run.securities[0];
  const cpuCount = os.cpus().length;
  const doc: Doc<S, R> = {
    schemaVersion: 2,
    suite: definition.spec.suite,
    incomplete: true,
    provenance: collectProvenance(WORKSPACE_ROOT, argv),
    settings: { ...args.settings, startedAt: run.startedAt.toISOString(), preset: args.preset, network: pathProfile.name, security: security.name, node: args.runtimes[0].name, cpuCount, cores: coresNote(cpuCount) + securityNote(security) },
    plan: definition.plan(args.settings),
    results: null,
  };
  const profiling = profilingOf(definition, args, doc, run);
  run.log(`writing ${path.relative(process.cwd(), run.runDir)}/`);
  // The run's throwaway CA, made when the servers start and removed at the end (or on a signal, or at exit).
  const certificates = security.tls ? new RunCertificates() : undefined;
  if (certificates) run.keep(() => certificates.remove());
  const securityFor = (serverHost: string): StartOptions['security'] => (certificates ? { mode: security.name, certificates: certificates.for(serverIdentity(serverHost)) } : undefined);
  const ownSecurity: SuiteSecurity | null = certificates ? (identity) => ({ mode: security.name, certificates: certificates.for(identity) }) : null;
  let failure: string | null = null;
  return {
    doc,
    across: (network, inner) => acrossStage(definition, doc, run, network, brokersOf(nestOf(definition, args) as TransportName[]).length > 0, inner),
    measure: async ({ placement }) => {
      doc.results = await measureSuite(definition, args, doc, run, { pathProfile, securityFor, ownSecurity, profiling }, placement ?? null);
    },
    close: () => {
      const results = doc.results as R;
      failure = definition.failure?.(results) ?? null;
      return { doc: { ...doc, incomplete: false, provenance: { ...doc.provenance, finishedAt: new Date().toISOString() }, results }, code: failure ? 1 : 0 };
    },
    report: async (done) => {
      process.stdout.write(suiteMarkdown(definition, done as SuiteDocument<S, R>));
      run.log(`results in ${path.relative(process.cwd(), run.runDir)}/ (${exportedFiles(exportersOf(definition), done)})`);
      if (failure) run.log(`failed its check: ${failure}`);
    },
  };
}

/** --cpu-profile: the suite's profilers, their records kept in the document (saved after each measured part) and stopped at the end; null without it. */
function profilingOf<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>, args: SuiteArgs<S>, doc: Doc<S, R>, run: FolderRun): SuiteProfiling | null {
  if (!args.cpuProfile) return null;
  const variant = definition.needsServers || definition.usesStage ? 'blog' : 'in-process';
  const place = { network: doc.settings.network, runtime: doc.settings.node, security: doc.settings.security, variant };
  const profiling = new SuiteProfiling(run.runDir, WORKSPACE_ROOT, place, (records) => {
    doc.cpuProfiles = records;
    run.save();
  });
  run.keep(() => profiling.close());
  doc.settings.cpuProfile = { intervalUs: profiling.intervalUs };
  return profiling;
}

/** On loopback `inner` runs here; otherwise on the network's stage (with its broker namespace when `broker`), recorded in the document, which a signal takes down. */
async function acrossStage<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>, doc: Doc<S, R>, run: FolderRun, pathProfile: PathProfile, broker: boolean, inner: (stage: Stage | undefined) => Promise<void>): Promise<void> {
  const network = pathProfile.network;
  if (!usesStage(network)) return inner(undefined);
  const record = networkRecord(network);
  doc.provenance = { ...doc.provenance, networks: { [pathProfile.name]: record } };
  await onStage(network, record, run.log, run.save, { broker }, async (stage) => {
    const release = run.keep(() => stage.stop());
    // Every suite's page prints the setup note: it says across what the calls went, and how.
    if (definition.needsServers) doc.settings.cores +=
      `. Across the ${pathProfile.name} network stage (${describeCalibration(record.calibration!)}): the servers run in the stage's server namespace and ` +
      "the calls are made by a process of the bench in its client namespace, so every connection's handshake and lookup crosses the stage";
    run.save();
    try {
      await inner(stage);
    } finally {
      release();
    }
  });
}

/** What the calls cross: the path profile, and the servers' security for the address they are dialled at (undefined: plain). */
interface SuiteWay {
  pathProfile: PathProfile;
  securityFor(serverHost: string): StartOptions['security'];
  /** The same for a suite's own apps, naming what they are dialled at (null: plain). */
  ownSecurity: SuiteSecurity | null;
  /** --cpu-profile's profilers, or null. */
  profiling: SuiteProfiling | null;
}

/** What the setup note adds under TLS: every connection's security, said once in every report. */
function securityNote(security: SecurityRecord): string {
  if (!security.tls) return '';
  const client = security.clientCertificates ? ', the servers requiring and verifying the client’s certificate from the same CA' : '';
  return `. Under ${security.name}: every connection to the servers is TLS 1.3, their certificates verified against a CA made for the run${client}`;
}

/** The servers (in the stage's server namespace when there is one), the path's parts, then the suite's calls; the servers stop before the stage. */
async function measureSuite<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>, args: SuiteArgs<S>, doc: Doc<S, R>, run: FolderRun, { pathProfile, securityFor, ownSecurity, profiling }: SuiteWay, stage: Stage | null): Promise<R> {
  const live: { servers: SuiteServers | null; path: ActivePath | null; brokers: RunBrokers | null } = { servers: null, path: null, brokers: null };
  const stop = async () => {
    live.path?.stop();
    live.path = null;
    await live.servers?.stop();
    live.servers = null;
    await live.brokers?.stop();
    live.brokers = null;
  };
  const release = run.keep(stop);
  try {
    if (definition.needsServers) {
      run.log(`starting server-a and server-b (blog variant)${stage ? ` in the ${pathProfile.name} stage's server namespace` : ''} …`);
      const nest = nestOf(definition, args);
      const kinds = brokersToStart(nest);
      if (kinds.length > 0) {
        run.log(`starting the brokers ${kinds.join(', ')}${stage ? ` in the ${pathProfile.name} stage's broker namespace` : ' on loopback'} …`);
        live.brokers = await startRunBrokers(kinds, stage ?? undefined);
        doc.provenance = { ...doc.provenance, brokers: live.brokers.records };
      }
      // --cpu-profile: the servers the calls reach; the idle client app is not profiled.
      const serverProfiling = profiling?.forProcesses(['server-a', 'server-b']);
      live.servers = await startSuiteServers(WORKSPACE_ROOT, run.runDir, stage ?? undefined, securityFor(stage?.hosts.server ?? '127.0.0.1'), { transports: nest, brokerEnv: live.brokers?.env ?? {} }, serverProfiling);
      // What the servers run on, read from their processes (the calls are made by this process: provenance.bench).
      doc.provenance = { ...doc.provenance, apps: Object.fromEntries(Object.entries(live.servers.pids).map(([app, pid]) => [app, runtimeOfProcess(pid)])) };
      run.save();
    }
    const context = contextOf(args, doc, run, live.servers, stage, ownSecurity, profiling);
    if (!stage || !live.servers) {
      // The calls are made here (a suite with its own apps only drives them from here: its apps are its profiled processes).
      if (!definition.usesStage) profiling?.profileThisProcess();
      return await definition.run(context);
    }
    // Across a stage: the path's parts, checked, then the calls from the client namespace.
    const rttMs = calibratedRttMs(doc.provenance.networks![pathProfile.name]);
    if (pathProfile.features.length > 0) {
      run.log(`building the path: ${pathProfile.features.join(', ')} …`);
      live.path = await startPath(stage, pathProfile, live.servers.ports);
      await checkedPath(stage, live.path, rttMs, run.log, (entry) => {
        doc.provenance.networks![pathProfile.name].path = entry;
        run.save();
      });
    }
    const activePath = live.path;
    const counters = async (): Promise<PathCounters> => (activePath ? activePath.counters() : { dns: null, envoy: null });
    // --cpu-profile: the job in the client namespace serves its own profiler; this process starts and stops them all.
    const job = { ...jobOf(args, run.runDir, live.servers, activePath, pathProfile, rttMs), ...jobProfiling(profiling) };
    const profile = (op: 'start' | 'stop', unit: ProfiledUnit, calls: number) => (!profiling ? Promise.resolve() : op === 'start' ? profiling.start(unit) : profiling.stop(unit, calls));
    return await runInClientNamespace<S, R>(stage, job, { log: run.log, save: context.save, counters, profile });
  } finally {
    release();
    await stop();
  }
}

/** The job's own profiler (--cpu-profile): a socket among the suite's profiled processes, which the job serves itself. */
function jobProfiling(profiling: SuiteProfiling | null): Pick<StageJob<unknown>, 'cpuProfile'> {
  if (!profiling) return {};
  const set = profiling.forProcesses([SUITE_PROCESS]);
  return { cpuProfile: { socket: set.sockets[SUITE_PROCESS]!, intervalUs: set.intervalUs } };
}

/** What the suite's run sees in this process. */
function contextOf<S extends Record<string, number>, R>(args: SuiteArgs<S>, doc: Doc<S, R>, run: FolderRun, servers: SuiteServers | null, stage: Stage | null, security: SuiteSecurity | null, profiling: SuiteProfiling | null): SuiteContext<S> {
  const save = (partial: unknown) => {
    doc.results = partial as R;
    run.save();
  };
  return {
    settings: args.settings,
    preset: args.preset,
    runDir: run.runDir,
    servers,
    stage,
    extras: args.extras,
    addProvenance: (entries) => {
      doc.provenance = { ...doc.provenance, ...entries };
      run.save();
    },
    security,
    path: null,
    profiled: profiling?.around ?? unprofiled,
    profiling,
    log: run.log,
    save,
    progress: (line, partial) => {
      run.log(line);
      save(partial);
    },
  };
}

function jobOf<S>(args: SuiteArgs<S>, runDir: string, servers: SuiteServers, activePath: ActivePath | null, pathProfile: PathProfile, rttMs: number): StageJob<S> {
  return {
    settings: args.settings,
    preset: args.preset,
    runDir,
    servers: {
      // A path's names are dialled with the servers' scheme (https under TLS: the names are in the certificate).
      serverAUrl: activePath ? activePath.serverAUrl.replace(/^http:/, `${new URL(servers.serverAUrl).protocol}`) : servers.serverAUrl,
      serverBAddress: activePath?.serverBAddress ?? servers.serverBAddress,
      securityEnv: servers.securityEnv,
      nestEnv: servers.nestEnv,
      pids: servers.pids,
      ports: servers.ports,
    },
    path: { name: pathProfile.name, features: pathProfile.features, rttMs },
    extras: args.extras,
  };
}

/** The Nest transports the suite's calls go through (SuiteDefinition.nestTransports), none by default. */
function nestOf<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>, args: SuiteArgs<S>): string[] {
  return [...(definition.nestTransports?.(args.extras) ?? [])];
}
