// One fault run (issue #45): a steady open-loop rate for three phases, the fault injected at the end of
// the first into the replica the callers used most (or into the component: Envoy, dnsmasq, the broker),
// undone at the end of the second; every call's outcome from the driver, everyone's counters polled
// through it every 100 ms. The records are in faults.ts, the figures in fault-figures.ts.
import { runStageCommand, type Stage } from '../../network/stage';
import type { BalancingStrategy, Recovery, Replica, ServiceTransport, StrategyName } from '../../network/service';
import type { Broker } from '../../brokers';
import type { DriverProcess } from './driver-process';
import type { AppExit, ReplicaApps } from './replica-apps';
import { FAULT_SCHEDULE, lostReplicaCommands, type Fault, type FaultName } from './faults';
import { faultFigures, type CounterPoll, type FaultFigures } from './fault-figures';

/** What the fault was injected into: a replica's app, or a component; its PID when it is a process. */
export interface FaultTargetRecord {
  what: string;
  replica: string | null;
  pid: number | null;
  /** Why this one (the busiest replica by its own counter in the steady phase). */
  why: string;
}

export interface FaultCell extends FaultFigures {
  strategy: StrategyName;
  transport: ServiceTransport;
  fault: FaultName;
  /** The recovery tunings on in this run (--recovery; network/service/recovery.ts): none, one tuning's id, or all that apply; absent in runs before it: none. */
  recoveryTuning?: Recovery;
  target: FaultTargetRecord;
  offeredPerS: number;
  phaseMs: number;
  /** ms since the run's start (the driver's clock, started when the bench sent the run). */
  injectedAtMs: number;
  undoneAtMs: number | null;
  endMs: number;
  /** How it was undone, or why it could not be. */
  undo: string;
  /** The target's processes that ended during the run (which, how, when: ms since its start). */
  exits: (Omit<AppExit, 'atMs'> & { afterInjectionMs: number })[];
}

/** What a fault run needs of the measurement: the replicas and their apps, the components, the driver. */
export interface FaultHost {
  stage: Stage;
  replicas(): readonly Replica[];
  appsOf(replica: Replica): ReplicaApps | undefined;
  /** Its apps stopped (what is left of them) and started again: listening once it resolves. */
  restartReplica(strategy: BalancingStrategy, replica: Replica): Promise<void>;
  proxyPid(): number | null;
  proxyCpuMs(): number | null;
  restartProxy(): Promise<void>;
  dnsPid(): number;
  stopDns(): void;
  restartDns(): Promise<void>;
  brokerOf(transport: ServiceTransport): Broker | null;
  startDriver(strategy: BalancingStrategy, transport: ServiceTransport, warmupRate: number, recovery: Recovery): Promise<DriverProcess>;
}

export interface FaultRunSettings {
  rate: number;
  phaseMs: number;
  deadlineMs: number;
  /** The recovery tunings on for the run (the driver's caller; the apps and the proxy are already in place). */
  recovery: Recovery;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The app a replica fault hits: the one serving the transport. */
const appOf = (transport: ServiceTransport): 'server-a' | 'server-b' => (transport === 'http-json' ? 'server-a' : 'server-b');

/** Everyone's counters every pollMs until stopped, through the driver (a replica that does not answer within counterTimeoutMs reads null). */
function pollCounters(host: FaultHost, driver: DriverProcess, at: () => number): { polls: CounterPoll[]; stop(): Promise<void> } {
  const polls: CounterPoll[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const reply = await driver.send({ type: 'counters', timeoutMs: FAULT_SCHEDULE.counterTimeoutMs }, 'counters');
      const requests: Record<string, number | null> = {};
      const cpuMs: Record<string, number | null> = {};
      for (const [name, sample] of Object.entries(reply.replicas)) {
        requests[name] = 'error' in sample ? null : (sample.requests ?? 0);
        cpuMs[name] = 'error' in sample ? null : sample.cpuUserMs + sample.cpuSystemMs;
      }
      polls.push({ atMs: at(), requests, cpuMs, driverCpuMs: reply.driverCpuMs, proxyCpuMs: host.proxyCpuMs() });
      await sleep(FAULT_SCHEDULE.pollMs);
    }
  })();
  return {
    polls,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** The replica that served the most requests between the first poll and the last (the one the callers used most). */
function busiest(replicas: readonly Replica[], polls: readonly CounterPoll[]): Replica {
  const first = polls[0];
  const last = polls.at(-1);
  const served = (r: Replica) => (first && last ? (last.requests[r.name] ?? 0) - (first.requests[r.name] ?? 0) : 0);
  return [...replicas].sort((a, b) => served(b) - served(a))[0];
}

interface Injected {
  target: FaultTargetRecord;
  /** Undoes the fault; resolves with how. */
  undo(): Promise<string>;
}

/** Injects `fault` now; the returned undo puts things back. */
function inject(host: FaultHost, fault: Fault, strategy: BalancingStrategy, transport: ServiceTransport, polls: readonly CounterPoll[]): Injected {
  if (fault.target === 'replica') {
    const replica = busiest(host.replicas(), polls);
    const app = appOf(transport);
    const pid = host.appsOf(replica)?.pids[app] ?? null;
    if (pid === null) throw new Error(`${fault.name}: replica ${replica.name} has no ${app} running`);
    const target = { what: `${replica.name} ${app}`, replica: replica.name, pid, why: 'the replica the callers used most in the steady phase (its own counter)' };
    if (fault.name === 'replica-kill') {
      process.kill(pid, 'SIGKILL');
      return { target, undo: () => host.restartReplica(strategy, replica).then(() => 'its apps started again and listening') };
    }
    if (fault.name === 'replica-freeze') {
      process.kill(pid, 'SIGSTOP');
      return { target, undo: async () => (process.kill(pid, 'SIGCONT'), 'SIGCONT') };
    }
    const server = host.stage.topology.namespaces.server;
    for (const command of lostReplicaCommands(server, replica.address, 'inject')) runStageCommand(command);
    return { target, undo: async () => (lostReplicaCommands(server, replica.address, 'clear').forEach((c) => runStageCommand(c)), 'its traffic let through again') };
  }
  if (fault.target === 'sidecar') {
    const pid = host.proxyPid();
    if (pid === null) throw new Error('sidecar-kill: no Envoy is running');
    process.kill(pid, 'SIGKILL');
    return { target: { what: "l7-proxy's Envoy", replica: null, pid, why: 'the one proxy in front of the replicas' }, undo: () => host.restartProxy().then(() => 'Envoy started again') };
  }
  if (fault.target === 'dns') {
    const pid = host.dnsPid();
    host.stopDns();
    return { target: { what: 'the cluster DNS (dnsmasq)', replica: null, pid, why: 'the headless name\'s server' }, undo: () => host.restartDns().then(() => 'dnsmasq started again') };
  }
  const broker = host.brokerOf(transport);
  if (!broker) throw new Error(`broker-kill: ${transport} goes through no broker this run started`);
  process.kill(broker.pid, 'SIGKILL');
  return { target: { what: `the ${broker.kind} broker`, replica: null, pid: broker.pid, why: `the broker ${transport} goes through` }, undo: async () => fault.undo };
}

/** Runs one fault under load and returns what the callers and the replicas' counters saw. */
export async function runFault(host: FaultHost, strategy: BalancingStrategy, transport: ServiceTransport, fault: Fault, s: FaultRunSettings): Promise<FaultCell> {
  const driver = await host.startDriver(strategy, transport, s.rate, s.recovery);
  let injected: Injected | null = null;
  let undone = false;
  try {
    const drainMs = s.deadlineMs + 1000; // every call ends by its deadline: none is abandoned
    const calls = driver.send({ type: 'calls', rate: s.rate, durationMs: 3 * s.phaseMs, drainMs }, 'calls');
    const started = performance.now();
    const at = () => performance.now() - started;
    const poller = pollCounters(host, driver, at);
    await sleep(s.phaseMs - at());
    const exitsBefore = new Map(host.replicas().map((r) => [r.name, host.appsOf(r)?.exits.length ?? 0]));
    injected = inject(host, fault, strategy, transport, poller.polls);
    const injectedAtMs = at();
    const apps = injected.target.replica ? host.appsOf(host.replicas().find((r) => r.name === injected!.target.replica)!) : undefined;
    await sleep(2 * s.phaseMs - at());
    const undo = await injected.undo().catch((error: Error) => `not undone: ${error.message}`);
    undone = true;
    const undoneAtMs = fault.target === 'broker' ? null : at();
    const { result, log } = await calls;
    const endMs = Math.max(3 * s.phaseMs, result.elapsedMs);
    await poller.stop();
    const exits = (apps?.exits ?? []).slice(exitsBefore.get(injected.target.replica ?? '') ?? 0).map(({ atMs, ...e }) => ({ ...e, afterInjectionMs: atMs - started - injectedAtMs }));
    const figures = faultFigures(log, poller.polls, { injectedAtMs, undoneAtMs, endMs, rate: s.rate, faulted: injected.target.replica });
    return { strategy: strategy.name, transport, fault: fault.name, recoveryTuning: s.recovery, target: injected.target, offeredPerS: s.rate, phaseMs: s.phaseMs, injectedAtMs, undoneAtMs, endMs, undo, exits, ...figures };
  } finally {
    if (injected && !undone) await injected.undo().catch(() => undefined);
    await driver.stop();
  }
}

/** A fault run's line of progress. */
export function describeFault(c: FaultCell): string {
  const after = (ms: number | null) => (ms === null ? 'never' : `${Math.round(ms)} ms`);
  return (
    `${c.strategy} ${c.transport} ${c.fault}${c.recoveryTuning && c.recoveryTuning !== 'none' ? ` with ${c.recoveryTuning}` : ''} (${c.target.what}) at ${c.offeredPerS}/s: ${c.failed} failed, ${c.hung} hung, ${c.slow} slow of ${c.due}; first failure after ${after(c.firstFailureAfterMs)}, ` +
    `whole again after ${after(c.recoveredAfterMs)} (${c.recovery}); survivors carried the calls after ${after(c.survivorsCarryAfterMs)}`
  );
}
