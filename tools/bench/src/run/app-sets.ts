// The life of a variant's app sets: each starts at its first visit, idles between its visits while the
// other sets serve theirs, and stops after its last. main.ts decides what to run; this decides on what.
import * as path from 'node:path';
import { AppStartError, KEEP_WARM_NODE_FLAGS, startApps, type Placement, type StartedApps, type StartOptions } from './apps';
import { RESTARTS_PER_SET, type BenchOptions, appSetKey, lastVisitOfAppSet, type VariantRecord, DEFAULT_RUNTIME } from '../plan';
import { HttpClientDriver, probeMachine, readCpu, describeFailure, runVisits, type BrokerMeters, type RunnerHooks } from '../measure';
import { givenToken } from './control-token';
import { type Failure, type PathCounters, type Visit, type RawResult, type RunDocument, describePath, pathChanges, withoutKeyMaterial, type Pinning, type QuietWaits, type SetEvent } from '../model';
import { QUIET_RULE, waitUntilQuiet } from './quiesce';
import { errorText } from '../cli';
import type { NodeBinary } from './node-binaries';
import { runtimeOfProcess } from './app-runtimes';
import type { RunCertificates, ServerIdentity } from '../security';
import { SERVICE_NAMES, serviceFqdn } from '../network/path';
import { MICROSERVICE_TRANSPORT_NAMES } from '@bench/transports';
import { readHostTcpCounters } from '../network/stage';

export function noQuietWaits(): QuietWaits {
  return { rule: QUIET_RULE, visits: 0, totalMs: 0, notQuiet: 0 };
}

export interface VariantContext {
  workspaceRoot: string;
  options: BenchOptions;
  /** Gets each started set (settings.startedApps), the clients' self-descriptions and the quiet waits. */
  doc: RunDocument;
  runDir: string;
  pinning: Pinning;
  signal: AbortSignal;
  hooks: RunnerHooks;
  /** Writes the run's files; called when a set has started, so its pids are on disk before it serves. */
  save: () => void;
  /** Where the apps run (the network stage's namespaces); default every app on 127.0.0.1. */
  placement?: Placement;
  /** The `node` of the runtime these visits run on (--node); default the one running the bench. */
  node?: NodeBinary;
  /** The run's certificates (--security tls / mtls); absent when every visit is plain. */
  certificates?: RunCertificates;
  /** The URLs of the brokers the bench started across this network (REDIS_URL, …: run-brokers.ts); none without. */
  brokerEnv?: Record<string, string>;
  /** The broker each transport goes through, read around its timed calls (run-brokers.ts); none without. */
  brokerMeters?: BrokerMeters;
}

/** Records what every app of a just-started set runs on, under provenance.runtimes[runtime].apps[variant]. */
function recordAppRuntimes(doc: RunDocument, runtime: string, node: NodeBinary | undefined, variantId: string, pids: Record<string, number>): void {
  const runtimes = (doc.provenance.runtimes ??= {});
  const record = (runtimes[runtime] ??= {
    version: node?.version ?? process.versions.node,
    binary: node?.path ?? process.execPath,
    source: node?.source ?? 'bench',
    apps: {},
  });
  record.apps[variantId] ??= Object.fromEntries(Object.entries(pids).map(([app, pid]) => [app, runtimeOfProcess(pid)]));
}

/** A set of apps that is up: started by the bench (apps) or given by --client-url (apps null). */
interface LiveSet {
  apps: StartedApps | null;
  driver: HttpClientDriver;
  slot: number;
}

/**
 * One set of apps over the run. While it serves, `live`; after it died, stopped answering or could not
 * start, it is started again while restarts are left, and otherwise keeps the `failure` that every
 * later visit it was to serve is recorded with.
 */
interface SetState {
  live: LiveSet | null;
  failure: Failure | null;
  restarts: number;
}

/** Starts the set of apps a visit needs (unless --client-url), records it, and asks the client who it is. */
async function startSet(planned: Visit, slot: number, variant: VariantRecord, ctx: VariantContext): Promise<LiveSet> {
  const { options, doc, runDir, pinning } = ctx;
  let apps: StartedApps | null = null;
  if (!options.clientUrl) {
    const id = planned.record.id;
    const forWhat = planned.fork > 0 ? ` for ${id} fork ${planned.fork}/${planned.forks}` : '';
    process.stderr.write(`bench: starting server-a, server-b and client (${variant.id})${forWhat} …\n`);
    const logDir = path.join(runDir, 'logs', ...(planned.network === 'loopback' ? [] : [planned.network]), ...(planned.runtime === DEFAULT_RUNTIME ? [] : [`node${planned.runtime}`]), ...(planned.security === 'plain' ? [] : [planned.security]), variant.id, ...(planned.fork > 0 ? [`${planned.record.aliases[0] ?? id}-fork${planned.fork}`] : []));
    // Only sets that idle between visits need keeping warm; a set with one visit runs as plain Node.
    const nodeFlags = planned.visits > Math.max(1, planned.forks) ? KEEP_WARM_NODE_FLAGS : [];
    // server-b connects the run's Nest microservice transports (nest-tcp, …) beside gRPC; none in a run without them.
    const microservices = options.transports.filter((t) => MICROSERVICE_TRANSPORT_NAMES.includes(t));
    apps = await startApps(ctx.workspaceRoot, logDir, pinning, variant, { slot, nodeFlags, placement: ctx.placement, nodeBinary: ctx.node?.path, security: securityFor(planned, ctx), microservices, brokerEnv: ctx.brokerEnv });
    if (variant.runtime === 'node') recordAppRuntimes(doc, planned.runtime, ctx.node, variant.id, apps.pids);
    ((doc.settings.startedApps ??= {})[variant.id] ??= []).push({
      network: planned.network,
      runtime: planned.runtime,
      security: planned.security,
      cases: planned.fork > 0 ? [id] : 'all',
      fork: planned.fork,
      pids: apps.pids,
      ports: apps.ports,
      portsFromOs: apps.portsFromOs,
      portAttempts: apps.portAttempts,
      nodeFlags: variant.runtime === 'node' ? nodeFlags : [],
      ...(apps.path ? { path: apps.path.record() } : {}),
    });
    ctx.save();
  }
  try {
    const driver = options.clientUrl ? new HttpClientDriver(options.clientUrl, givenToken()) : new HttpClientDriver(apps!.clientUrl, apps!.token);
    // What the client says of itself, minus any key material an older or foreign client still sends.
    const client = withoutKeyMaterial(await driver.describe());
    // One client per variant and runtime: the default runtime's under the variant's id, as before --node.
    const clientKey = planned.runtime === DEFAULT_RUNTIME ? variant.id : `${variant.id}@node${planned.runtime}`;
    (doc.provenance.clients ??= {})[clientKey] = client;
    doc.provenance.client ??= client;
    return { apps, driver, slot };
  } catch (error) {
    await apps?.stop();
    throw error;
  }
}

/**
 * A visit's security for its apps: the mode, and the run's certificates naming the address its client
 * dials the servers at (127.0.0.1, or the network stage's server address), localhost and the service names.
 */
function securityFor(planned: Visit, ctx: VariantContext): StartOptions['security'] {
  if (planned.security === 'plain') return undefined;
  if (!ctx.certificates) throw new Error(`--security ${planned.security}: the run made no certificates`);
  return { mode: planned.security, certificates: ctx.certificates.for(serverIdentity(ctx.placement?.hosts.server ?? '127.0.0.1')) };
}

/**
 * What the servers' certificate names when a client dials them at `server` (127.0.0.1, or the network
 * stage's server address): that address, localhost, and the service names a path with names dials
 * (network/path/cluster-dns.ts). bench:all's sets of apps and the suites' servers alike.
 */
export function serverIdentity(server: string): ServerIdentity {
  const names = ['localhost', ...Object.values(SERVICE_NAMES).flatMap((name) => [name, serviceFqdn(name)])];
  return { names, ips: [server] };
}

function startFailure(error: unknown): Failure {
  if (error instanceof AppStartError) return error.failure;
  return { kind: 'start', message: errorText(error) };
}

/** The lowest slot (explicit ports + 10 × slot) no live set uses. */
function freeSlot(states: ReadonlyMap<string, SetState>): number {
  const taken = new Set([...states.values()].flatMap((s) => (s.live ? [s.live.slot] : [])));
  let slot = 0;
  while (taken.has(slot)) slot++;
  return slot;
}

/**
 * What the runner reads around each call, as running totals: a path profile's parts (the DNS server's
 * and the set's sidecars' counts) and the TCP counters of the namespace the servers listen in: on a stage
 * its server namespace's, on loopback the host's (issue #43); none for apps the bench did not start (--client-url).
 */
function countersOf(live: LiveSet, placement: Placement | undefined): (() => Promise<PathCounters>) | undefined {
  const path = live.apps?.path ?? null;
  const tcp = placement?.tcpCounters ? () => placement.tcpCounters!() : live.apps && !placement ? readHostTcpCounters : null;
  if (!path && !tcp) return undefined;
  return async () => ({
    ...(path ? await path.counters() : { dns: null, envoy: null }),
    // A part that cannot be read leaves that part unknown, not the path's.
    tcp: tcp ? await tcp().catch(() => null) : null,
  });
}

/** A visit that was never made, because the set that was to serve it had failed: one failed result per transport. */
export function failedVisit(planned: Visit, failure: Failure): RawResult[] {
  return planned.transports.map((transport) => ({
    network: planned.network,
    runtime: planned.runtime,
    security: planned.security,
    variant: planned.variant,
    case: planned.record.id,
    transport,
    rows: planned.record.rows,
    requests: planned.record.requests,
    warmup: planned.warmup,
    runs: planned.runs,
    blogMs: planned.record.blogMs?.[transport] ?? null,
    startedAt: new Date().toISOString(),
    wallMs: 0,
    machineProbeMs: null,
    measurement: null,
    sampleOrder: [],
    error: describeFailure(failure),
    failure,
  }));
}

/**
 * A visit's failed results, blamed on what broke its set (a process that died, a set that stopped
 * answering): each keeps its own message and gains the process, its exit and its log's last lines.
 */
export function blame(results: RawResult[], cause: Failure): RawResult[] {
  return results.map((result) => {
    if (result.failure === null) return result;
    // A death explains the call's failure; a set that stopped answering only adds to a call's own deadline or error.
    const failure: Failure = { ...cause, kind: cause.kind === 'died' ? 'died' : result.failure.kind, message: result.failure.message };
    return { ...result, failure, error: describeFailure(failure) };
  });
}

/**
 * After a visit: whether its set is still fit to serve. A process that exited is known at once; a
 * visit with a failed call also asks the client whether it and both servers still answer (which
 * gives a death that happened during the last call time to be noticed).
 */
async function inspect(live: LiveSet, results: readonly RawResult[]): Promise<Failure | null> {
  const died = live.apps?.death() ?? null;
  if (died || results.every((r) => r.failure === null)) return died;
  const notReady = await live.driver.notReady();
  const diedMeanwhile = live.apps?.death() ?? null;
  if (diedMeanwhile) return diedMeanwhile;
  return notReady === null ? null : { kind: 'not-answering', message: `its apps stopped answering their readiness check (${notReady})` };
}

/**
 * Runs one variant's visits in plan order. Before its first call, a visit waits until the idle sets
 * are quiet (quiesce.ts). A set that cannot start, dies or stops answering costs the visits it was to
 * serve (each recorded as failed, with the reason), not the run: it is started again once
 * (RESTARTS_PER_SET, never for --client-url) and otherwise its later visits are failed at once.
 * Every set still up is stopped however the loop ends.
 */
export async function runVariant(visits: readonly Visit[], variant: VariantRecord, ctx: VariantContext): Promise<void> {
  const last = lastVisitOfAppSet(visits);
  const states = new Map<string, SetState>();
  const quiet = (ctx.doc.settings.quietWaits ??= noQuietWaits());

  const retire = retirer(variant, ctx);
  const clientPath = pathMeasurer(visits, variant, ctx);
  try {
    for (const [index, planned] of visits.entries()) {
      if (ctx.signal.aborted) break;
      const key = appSetKey(planned);
      const state = states.get(key) ?? { live: null, failure: null, restarts: 0 };
      states.set(key, state);
      const diedIdle = state.live?.apps?.death() ?? null;
      if (diedIdle) await retire(state, key, diedIdle, true);
      while (!state.live && !state.failure) {
        try {
          state.live = await startSet(planned, freeSlot(states), variant, ctx);
        } catch (error) {
          await retire(state, key, startFailure(error), true);
        }
      }
      if (state.failure || !state.live) {
        await ctx.hooks.onVisitDone(failedVisit(planned, state.failure!), index, visits.length, planned);
        continue;
      }
      const live = state.live;
      if (!clientPath.measured()) await clientPath.measure(live, 'before');
      const idle = [...states.entries()].filter(([k, s]) => k !== key && s.live?.apps).flatMap(([, s]) => Object.values(s.live!.apps!.pids));
      const beforeVisit = async () => {
        const wait = await waitUntilQuiet(idle);
        quiet.visits++;
        quiet.totalMs = Math.round(quiet.totalMs + wait.waitedMs);
        if (!wait.quiet) quiet.notQuiet++;
      };
      let broken: Failure | null = null;
      const onVisitDone: RunnerHooks['onVisitDone'] = async (results, i, total, visited) => {
        broken = await inspect(live, results);
        await ctx.hooks.onVisitDone(broken ? blame(results, broken) : results, i, total, visited);
      };
      await runVisits([planned], live.driver, { ...ctx.hooks, beforeVisit, onVisitDone }, {
        signal: ctx.signal,
        probe: probeMachine,
        pathMeter: ctx.placement?.delayerCpu,
        pathCounters: countersOf(live, ctx.placement),
        // The run's processes: the bench and everything below it (its apps, their children, the stage's helpers);
        // apps the bench did not start (--client-url) are not known to be the run's, so nothing is recorded.
        ...(live.apps ? { cpu: () => readCpu([process.pid]) } : {}),
        brokers: ctx.brokerMeters,
      });
      if (!broken && index === visits.length - 1) await clientPath.measure(live, 'after');
      if (broken) await retire(state, key, broken, (last.get(key) ?? -1) > index);
      else if (last.get(key) === index) {
        state.live = null;
        await live.apps?.stop();
      }
    }
  } finally {
    await Promise.all([...states.values()].map((s) => s.live?.apps?.stop()));
  }
}

/** Takes a broken set out of service: restarted at its next visit while restarts are left, else failed for good; each time recorded (settings.restarts). */
function retirer(variant: VariantRecord, ctx: VariantContext): (state: SetState, key: string, cause: Failure, visitsLeft: boolean) => Promise<void> {
  const events = (ctx.doc.settings.restarts ??= []);
  const restartsAllowed = ctx.options.clientUrl ? 0 : RESTARTS_PER_SET;
  return async (state, key, cause, visitsLeft) => {
    await state.live?.apps?.stop();
    state.live = null;
    const restart = visitsLeft && state.restarts < restartsAllowed;
    if (restart) state.restarts++;
    else state.failure = cause;
    const action: SetEvent['action'] = restart ? 'restarted' : visitsLeft ? 'failed its remaining visits' : 'stopped (no visits left)';
    const event: SetEvent = { variant: variant.id, set: key, at: new Date().toISOString(), cause, action };
    events.push(event);
    process.stderr.write(`bench: set ${key}: ${describeFailure(cause)}; ${event.action}\n`);
    ctx.save();
  };
}

/** The client's own measurement of its path (provenance.path), before the variant's first visit and after its last. */
function pathMeasurer(visits: readonly Visit[], variant: VariantRecord, ctx: VariantContext): { measured(): boolean; measure(live: LiveSet, when: 'before' | 'after'): Promise<void> } {
  const paths = (ctx.doc.provenance.path ??= {});
  const on = visits[0] && visits[0].runtime !== DEFAULT_RUNTIME ? `node${visits[0].runtime}/` : '';
  const pathKey = `${visits[0]?.network ?? 'loopback'}/${on}${variant.id}`;
  return {
    measured: () => Boolean(paths[pathKey]?.before),
    measure: async (live, when) => {
      const record = (paths[pathKey] ??= { before: null, after: null, changed: [] });
      record[when] = await live.driver.path().catch((error: unknown) => ({ error: errorText(error) }));
      if (when === 'before') process.stderr.write(`bench: ${pathKey}: ${describePath(record.before)}\n`);
      else {
        record.changed = pathChanges(record.before, record.after);
        if (record.changed.length > 0) process.stderr.write(`bench: ${pathKey}: the path changed during the run: ${record.changed.join(', ')}\n`);
      }
      ctx.save();
    },
  };
}
