// bench:service's run: N replicas on the stage's server side, each strategy's addressing in place, and
// for every strategy × transport a rate sweep by the open-loop driver in the client namespace, each
// step with every replica's own counters (requests, CPU), its cgroup's throttling, the driver's and
// the delayer's CPU.
import * as path from 'node:path';
import type { ProcessSample } from '@bench/config';
import { dnsCountsBetween, type DnsCounts } from '../../model';
import { delayerCpuBetween, throttlingBetween, type CpuThrottling, type DelayerCpu, type Stage } from '../../network/stage';
import { resolveEnvoy } from '../../network/path';
import { FrontProxy, HeadlessService, ReplicaSet, applyVirtualIp, findStrategy, isBrokered, recoveriesFor, recoveryTunings, replicaAddress, replicaRecoveryEnv, serviceIdentity, BROKER_SHARING, SERVICE_GROUP, SERVICE_NAME, SERVICE_VIP, virtualIpRulesInForce, type BalancingStrategy, type BrokerSharing, type Recovery, type RecoveryTuning, type Replica, type ReplicaRecord, type ServiceTransport, type StrategyName } from '../../network/service';
import { brokersOf, type TransportName } from '@bench/transports';
import type { Broker } from '../../brokers';
import type { HdrSummary } from '../common/hdr';
import { rotate } from '../common/sequential';
import type { Fault } from './faults';
import { describeFault, runFault, type FaultCell, type FaultHost } from './fault-run';
import { DriverProcess } from './driver-process';
import type { StepResult } from './driver';
import type { TimelineBin } from './timeline';
import { HTTP_CONNECTIONS, MAX_IN_FLIGHT, PROXY_PORTS, SATURATION, SERVICE_PORTS, SERVICE_ROWS } from './plan';
import { replicaProcess, startReplicaApps, type AppExit, type ReplicaApps, type ReplicaMicroservices } from './replica-apps';
import { unprofiled, type SuiteProfiling } from '../common/profiling';
import { WORKSPACE_ROOT, type SuiteSecurity } from '../common/suite-definition';
import { brokersToStart, securityEnv, startRunBrokers, type RunBrokers, type StartOptions } from '../../run';
import { serviceFqdn } from '../../network/path';

export interface ServiceSettings extends Record<string, number> {
  stepMs: number;
  warmupMs: number;
  drainMs: number;
  deadlineMs: number;
  /** Offered rate of the change-under-load runs (calls/s); 0 runs none. */
  changeRate: number;
  /** Each of their three phases: steady, after a replica joined, after one left (ms). */
  changePhaseMs: number;
  /** Offered rate of the fault runs (--fault), calls/s. */
  faultRate: number;
  /** Each of their three phases: steady, the fault, after it was undone (ms). */
  faultPhaseMs: number;
}

export interface ServiceOptions {
  replicas: number;
  /** Thousandths of a core per replica, or null. */
  millicores: number | null;
  strategies: BalancingStrategy[];
  rates: readonly number[];
  /** Under --security tls|mtls: the run's CA, for the replicas' and the proxy's certificate; null: plain. */
  security: SuiteSecurity | null;
  /** The transports load is offered on (--transports), each with every strategy that applies to it. */
  transports: readonly ServiceTransport[];
  /** --cpu-profile: every replica's apps profiled over each sweep step (a unit per strategy, rate and transport); null or absent without it. */
  profiling?: SuiteProfiling | null;
  /** Faults injected under load after the sweeps and change runs (--fault; faults.ts); absent or empty: none. */
  faults?: readonly Fault[];
  /** --recovery: each pair's fault runs and a steady run once per recovery that applies to it (none first: the defaults); absent: none only, and no steady run. */
  recoveries?: readonly Recovery[];
  /** The steady runs' offered rates (--recovery-rates), calls/s; absent: the fault rate. */
  recoveryRates?: readonly number[];
}

export interface ReplicaShare {
  name: string;
  /** Sample requests the replica's app counted in the step. */
  requests: number;
  /** CPU its app (the one serving this transport) used in the step, by its own reading. */
  cpuMs: number;
  /** From its cgroup's cpu.stat; null without a CPU limit. */
  throttling: CpuThrottling | null;
  /** Its app ended during the sweep (killed from outside, crashed): which, how and when; its counters are gone since (requests and CPU 0 from then on). */
  gone?: ReplicaDeath;
  /** Its counters could not be read while its app still ran (why); requests and CPU read as 0. */
  unread?: string;
}

/** An app of a replica that died during a sweep: a recorded event of the cell it died in. */
export type ReplicaDeath = Omit<AppExit, 'atMs'> & { strategy: StrategyName; transport: ServiceTransport; during: string };

/** One step of a sweep: the driver's figures (latency from each call's due time in `corrected`, from its sending in `service`) and everyone's counters. */
export interface ServiceCell extends Pick<StepResult, 'ok' | 'errors' | 'errorKinds' | 'throughputPerS' | 'corrected' | 'service' | 'maxSendLagMs'> {
  strategy: StrategyName;
  transport: ServiceTransport;
  offeredPerS: number;
  replicas: ReplicaShare[];
  /** broker: the CPU of the broker the transport goes through (its Broker.sample()); absent or null without one. */
  cpuMs: { driver: number; replicas: number; delayer: number | null; receive: number | null; proxy: number | null; broker?: number | null };
  /** Everyone's CPU (driver, replicas, proxy, broker, delayer and the servers' receive thread) per 1,000 completed calls, ms. */
  cpuPer1000CallsMs: number | null;
  saturated: string | null;
  /** Queries the cluster DNS received in the step (from its log). */
  dns: DnsCounts;
  /** Replicas' apps that died in the step (the sweep went on with the others, which are then the Service's endpoints); absent: none. */
  events?: ReplicaDeath[];
}

/** A steady-state step (no fault) with a recovery's tunings on: its p99 and CPU per 1,000 calls are what the recovery costs when nothing fails. */
export type RecoverySteadyCell = ServiceCell & { recoveryTuning: Recovery };

/** A replica added and one removed gracefully under load at a fixed rate. */
export interface ChangeRun {
  strategy: StrategyName;
  transport: ServiceTransport;
  offeredPerS: number;
  ok: number;
  errors: number;
  errorKinds: Record<string, number>;
  /** Calls due in the run that neither succeeded nor failed: none may be lost. */
  lost: number;
  corrected: HdrSummary;
  /**
   * When the joined replica served its first request, from when it became an endpoint; polled until
   * the run ends, so `firstRequestPhase` says whether it came while it joined or only after the
   * oldest left (a client that re-resolves or reconnects only when a connection ends); null: never.
   */
  added: { name: string; endpointAtMs: number; firstRequestAfterMs: number | null; firstRequestPhase: 'joined' | 'after the oldest left' | null; requests: number };
  removed: { name: string; leftAtMs: number; drainedInMs: number };
  bins: TimelineBin[];
  /** Queries the cluster DNS received in each phase: steady, after the join, after the leave. */
  dns: { steady: DnsCounts; joined: DnsCounts; left: DnsCounts };
}

export interface ServiceResults {
  /** The replicas the sweeps ran on (change-under-load runs add and remove others: ChangeRun.added/removed). */
  replicas: ReplicaRecord[];
  cells: ServiceCell[];
  changes: ChangeRun[];
  /** Queries the cluster DNS received while each sweep's driver connected and warmed up (its first lookups). */
  driverStarts: { strategy: StrategyName; transport: ServiceTransport; dns: DnsCounts }[];
  /** Strategy × transport pairs not run, with why (does not apply, or what is missing here). */
  skipped: { strategy: StrategyName; transport: ServiceTransport | 'all'; why: string }[];
  failures: { strategy: StrategyName; transport: ServiceTransport; error: string }[];
  /** What the callers and the replicas' counters saw under each fault (--fault), per strategy × transport it applies to (and recovery, with --recovery); absent: none asked for. */
  faults?: FaultCell[];
  /** --recovery: each recovery's cost with nothing failing: a step per --recovery-rates rate, per strategy × transport and recovery (none included); absent: not asked for. */
  recovery?: RecoverySteadyCell[];
  /** The brokered transports run behind the `broker` strategy: their broker and how it shares the requests (absent in runs before it). */
  sharing?: ({ transport: ServiceTransport; broker: string; partitions: number | null } & BrokerSharing)[];
}

type Reading = { counters: Record<string, ProcessSample | { error: string }>; driverCpuMs: number; throttling: Map<string, CpuThrottling | null>; delayer: DelayerCpu | null; proxyCpuMs: number | null; brokerCpuMs: number | null; dns: DnsCounts };

/** Why a step counts as saturated (SATURATION), or null. */
export function saturation(step: Pick<StepResult, 'rate' | 'throughputPerS' | 'errors' | 'due'> & { corrected: Pick<HdrSummary, 'p99Ms'> }): string | null {
  if (step.errors > SATURATION.maxErrorShare * step.due) return `${step.errors} errors of ${step.due} calls`;
  if (step.throughputPerS < SATURATION.minThroughputShare * step.rate) return `${Math.round(step.throughputPerS)} of ${step.rate} calls/s completed`;
  if (step.corrected.p99Ms > SATURATION.maxP99Ms) return `p99 ${Math.round(step.corrected.p99Ms)} ms`;
  return null;
}

/** Starts the replicas as endpoints of the virtual IP and the headless name (recorded in provenance), then measures every strategy × transport. */
export async function measureService(
  stage: Stage,
  runDir: string,
  options: ServiceOptions,
  settings: ServiceSettings,
  addProvenance: (entries: Record<string, unknown>) => void,
  progress: (line: string, partial: ServiceResults) => void,
): Promise<ServiceResults> {
  const t = stage.topology;
  const set = new ReplicaSet(t, stage.record().tcp, options.millicores);
  const replicas: Replica[] = Array.from({ length: options.replicas }, () => set.add());
  const addresses = replicas.map((r) => r.address);
  applyVirtualIp(t, VIP_PORTS, addresses);
  // One certificate for every replica (as a Deployment's pods share a Secret), naming every address a replica may get in this run.
  const joining = settings.changeRate > 0 ? options.strategies.length * options.transports.length : 0;
  const identity = serviceIdentity(stage.hosts.server, Array.from({ length: options.replicas + joining }, (_, i) => replicaAddress(i + 1)));
  const security = options.security?.(identity);
  const headless = await HeadlessService.start(stage, addresses);
  const results: ServiceResults = { replicas: set.record(), cells: [], changes: [], driverStarts: [], skipped: [], failures: [] };
  const tls = security ? { mode: security.mode, certificateNames: identity } : { mode: 'plain' };
  let brokers: RunBrokers | null = null;
  try {
    brokers = await startServiceBrokers(stage, options.transports);
    const nest = nestSetup(options, brokers);
    if (brokers) results.sharing = sharingOf(options.transports, options.replicas);
    addProvenance({ service: { replicas: set.record(), virtualIp: SERVICE_VIP, virtualIpRules: virtualIpRulesInForce(t), headlessName: headless.record(), ports: SERVICE_PORTS, tls, ...(brokers ? { brokers: brokers.records, sharing: results.sharing, group: SERVICE_GROUP } : {}) } });
    return await new ServiceMeasurement(stage, runDir, options, settings, progress, set, replicas, headless, results, security, nest).run();
  } finally {
    headless.stop(); // its process would go with the server namespace anyway; its file goes with the work folder
    await brokers?.stop();
  }
}

/** The ports the Service's virtual IP forwards: server-a's, server-b's gRPC and its Nest TCP listener. */
const VIP_PORTS = [SERVICE_PORTS.http, SERVICE_PORTS.grpc, SERVICE_PORTS.tcp];

/** The brokers the transports go through, started in the stage's broker namespace (as bench:all starts them: run/run-brokers.ts); null: none. */
async function startServiceBrokers(stage: Stage, transports: readonly ServiceTransport[]): Promise<RunBrokers | null> {
  const kinds = brokersToStart(transports.filter(isBrokered));
  if (kinds.length === 0) return null;
  if (!stage.broker) throw new Error("the brokered transports need the stage's broker namespace, and this stage has none");
  return startRunBrokers(kinds, stage);
}

/** What the replicas' server-b and the driver need for Nest's transports: the apps' environment (brokers, the run's namespace, the group, the partitions) and the brokers. */
export interface NestSetup {
  microservices: ReplicaMicroservices;
  /** The driver's environment: the brokers' URLs and the namespace (the apps' own names for them). */
  driverEnv: Record<string, string>;
  brokers: readonly Broker[];
}

function nestSetup(options: ServiceOptions, brokers: RunBrokers | null): NestSetup {
  const nest = options.transports.filter((t) => t.startsWith('nest-'));
  if (nest.length === 0) return { microservices: { env: {}, ports: [] }, driverEnv: {}, brokers: [] };
  const shared = { MICROSERVICE_NAMESPACE: `service-${process.pid}`, ...(brokers?.env ?? {}) };
  const env = { ...shared, SERVER_B_MICROSERVICES: nest.join(','), SERVER_B_TCP_PORT: String(SERVICE_PORTS.tcp), MICROSERVICE_GROUP: SERVICE_GROUP, KAFKA_TOPIC_PARTITIONS: String(options.replicas) };
  return { microservices: { env, ports: nest.includes('nest-tcp') ? [SERVICE_PORTS.tcp] : [] }, driverEnv: shared, brokers: brokers?.brokers ?? [] };
}

/** How each brokered transport's broker shares the requests (BROKER_SHARING), with the Kafka topics' partitions. */
function sharingOf(transports: readonly ServiceTransport[], replicas: number): NonNullable<ServiceResults['sharing']> {
  return transports.filter(isBrokered).map((transport) => ({ transport, broker: brokersOf([transport as TransportName])[0], partitions: transport === 'nest-kafka' ? replicas : null, ...BROKER_SHARING[transport] }));
}

/** One bench:service measurement: its replicas, their Service (virtual IP, headless name, proxy) and what it has measured so far. */
class ServiceMeasurement {
  private readonly apps = new Map<string, ReplicaApps>();
  private proxy: FrontProxy | null = null;
  /** Replicas whose app died during this strategy's runs (by name): out of the endpoints until the next strategy starts them again. */
  private readonly gone = new Map<string, ReplicaDeath>();
  private proxyStarts = 0;
  /** The recovery tunings the replicas' apps and the proxy run with now (recovery.ts); none: their defaults. */
  private replicaEnv: Record<string, string> = {};
  private proxyTunings: readonly RecoveryTuning[] = [];

  constructor(
    private readonly stage: Stage,
    private readonly runDir: string,
    private readonly options: ServiceOptions,
    private readonly settings: ServiceSettings,
    private readonly progress: (line: string, partial: ServiceResults) => void,
    private readonly set: ReplicaSet,
    private readonly replicas: Replica[],
    private readonly headless: HeadlessService,
    private readonly results: ServiceResults,
    private readonly security: StartOptions['security'],
    private readonly nest: NestSetup,
  ) {}

  async run(): Promise<ServiceResults> {
    await this.eachPair('sweep', (strategy, transport) => this.sweep(strategy, transport));
    if (this.settings.changeRate > 0) await this.eachPair('change under load', (strategy, transport) => this.changeUnderLoad(strategy, transport));
    const recoveries = this.options.recoveries ?? ['none'];
    if (recoveries.some((r) => r !== 'none')) this.results.recovery = [];
    if (this.options.faults?.length) this.results.faults = [];
    if (this.results.faults || this.results.recovery) await this.eachPair(this.results.recovery ? 'recovery' : 'faults', (strategy, transport) => this.recoveryRuns(strategy, transport, recoveries));
    return this.results;
  }

  /** Each recovery asked for that applies to this pair (recovery.ts): its tunings put in place, a steady run (with --recovery), every fault; the defaults again after. */
  private async recoveryRuns(strategy: BalancingStrategy, transport: ServiceTransport, asked: readonly Recovery[]): Promise<void> {
    const { run, skipped } = recoveriesFor(asked, strategy.name, transport);
    for (const s of skipped) this.results.skipped.push({ strategy: strategy.name, transport, why: `recovery ${s.recovery}: ${s.why}` });
    try {
      for (const recovery of run) {
        await this.useRecovery(strategy, transport, recovery);
        if (this.results.recovery) {
          await this.steadyRun(strategy, transport, recovery).catch((error: Error) => {
            this.results.failures.push({ strategy: strategy.name, transport, error: `recovery ${recovery}, steady: ${error.message}` });
            this.progress(`${strategy.name} ${transport} recovery ${recovery} steady run FAILED: ${error.message}`, this.results);
          });
        }
        await this.faultRuns(strategy, transport, recovery);
      }
    } finally {
      await this.useRecovery(strategy, transport, 'none');
    }
  }

  /** The replicas' apps and the proxy as `recovery` needs them: started again only when what they run with changes (server-b's keep-alive permission, Envoy's config). */
  private async useRecovery(strategy: BalancingStrategy, transport: ServiceTransport, recovery: Recovery): Promise<void> {
    const tunings = recoveryTunings(recovery, strategy.name, transport);
    const env = replicaRecoveryEnv(tunings);
    if (JSON.stringify(env) !== JSON.stringify(this.replicaEnv)) {
      this.replicaEnv = env;
      const live = this.live();
      await this.stopApps();
      await this.startApps(strategy, live);
    }
    const proxied = tunings.filter((t) => t.app === 'front proxy');
    if (strategy.address === 'proxy' && proxied.map((t) => t.id).join() !== this.proxyTunings.map((t) => t.id).join()) {
      this.proxyTunings = proxied;
      await this.restartProxy();
    }
  }

  /** A recovery's cost with nothing failing: a fresh driver with its tunings, a step at each --recovery-rates rate, everyone's counters around each. */
  private async steadyRun(strategy: BalancingStrategy, transport: ServiceTransport, recovery: Recovery): Promise<void> {
    const rates = this.options.recoveryRates?.length ? this.options.recoveryRates : [this.settings.faultRate];
    // Warmed as long as a measured step: a steady run often follows a restart of the replicas or Envoy for
    // its settings, and with the sweep's short warm-up the first (none) read their JIT's CPU as its cost.
    const driver = await this.startDriver(strategy, transport, rates[0], recovery, Math.max(this.settings.warmupMs, this.settings.stepMs));
    try {
      for (const rate of rates) {
        const before = await this.read(driver, transport);
        const { result } = await driver.send({ type: 'step', rate, durationMs: this.settings.stepMs }, 'step');
        const cell: RecoverySteadyCell = { ...cellOf(strategy, transport, this.replicas, result, before, await this.read(driver, transport), this.gone), recoveryTuning: recovery };
        this.results.recovery!.push(cell);
        this.progress(`recovery ${recovery}, steady: ${describeStep(cell)}`, this.results);
      }
    } finally {
      await driver.stop();
    }
  }

  /** The front proxy stopped and started again: with the recovery tunings now in force, or after sidecar-kill. */
  private async restartProxy(): Promise<void> {
    await this.proxy?.stop();
    this.proxy = await this.startProxy();
  }

  /** The replicas whose apps run: every one but those that died in this strategy's runs. */
  private live(): Replica[] {
    return this.replicas.filter((r) => !this.gone.has(r.name));
  }

  /** Every fault asked for that applies to this pair, one run each with `recovery`'s tunings; one that fails is recorded and the next goes on. */
  private async faultRuns(strategy: BalancingStrategy, transport: ServiceTransport, recovery: Recovery): Promise<void> {
    for (const fault of this.options.faults ?? []) {
      const why = fault.notFor(strategy, transport);
      if (why) {
        if (recovery === 'none') this.results.skipped.push({ strategy: strategy.name, transport, why: `fault ${fault.name}: ${why}` });
        continue;
      }
      try {
        const cell = await runFault(this.faultHost(), strategy, transport, fault, { rate: this.settings.faultRate, phaseMs: this.settings.faultPhaseMs, deadlineMs: this.settings.deadlineMs, recovery });
        this.results.faults!.push(cell);
        this.progress(describeFault(cell), this.results);
      } catch (error) {
        this.results.failures.push({ strategy: strategy.name, transport, error: `fault ${fault.name}${recovery === 'none' ? '' : ` (recovery ${recovery})`}: ${error instanceof Error ? error.message : String(error)}` });
        this.progress(`${strategy.name} ${transport} fault ${fault.name} FAILED: ${this.results.failures.at(-1)!.error}`, this.results);
      }
    }
  }

  /** What a fault run reaches of this measurement (fault-run.ts). */
  private faultHost(): FaultHost {
    return {
      stage: this.stage,
      replicas: () => this.live(),
      appsOf: (replica) => this.apps.get(replica.name),
      restartReplica: async (strategy, replica) => {
        await this.apps.get(replica.name)?.stop();
        this.apps.delete(replica.name);
        await this.startApps(strategy, [replica]);
      },
      proxyPid: () => this.proxy?.pid ?? null,
      proxyCpuMs: () => this.proxy?.cpuMs() ?? null,
      restartProxy: () => this.restartProxy(),
      dnsPid: () => this.headless.pid,
      stopDns: () => this.headless.stop(),
      restartDns: () => this.headless.restart(),
      brokerOf: (transport) => this.brokerOf(transport),
      startDriver: (strategy, transport, rate, recovery) => this.startDriver(strategy, transport, rate, recovery),
    };
  }

  /** Apps of the live replicas that ended since they started (killed from outside, crashed): recorded, out of the endpoints, the driver told to read the others. */
  private async noticeDeaths(strategy: BalancingStrategy, transport: ServiceTransport, during: string, driver: DriverProcess): Promise<ReplicaDeath[]> {
    const deaths: ReplicaDeath[] = [];
    for (const replica of this.live()) {
      const exit = this.apps.get(replica.name)?.exits[0];
      if (!exit) continue;
      const death: ReplicaDeath = { replica: exit.replica, app: exit.app, pid: exit.pid, how: exit.how, at: exit.at, strategy: strategy.name, transport, during };
      this.gone.set(replica.name, death);
      deaths.push(death);
      this.progress(`${strategy.name} ${transport}: replica ${death.replica}'s ${death.app} (pid ${death.pid}) ${death.how} at ${death.at}, during ${during}; going on with ${this.live().map((r) => r.name).join(', ') || 'no replica'}`, this.results);
    }
    if (deaths.length > 0) {
      await this.publishEndpoints();
      await this.tellReplicas(driver);
    }
    return deaths;
  }

  /** The strategies this machine can run; the others recorded as skipped with why. */
  private runnable(): BalancingStrategy[] {
    return this.options.strategies.filter((strategy) => {
      const unavailable = strategyUnavailable(strategy);
      if (unavailable) {
        this.results.skipped.push({ strategy: strategy.name, transport: 'all', why: unavailable });
        this.progress(`${strategy.name}: not run: ${unavailable}`, this.results);
      }
      return !unavailable;
    });
  }

  /** Each strategy × transport it applies to, with the strategy's servers up; `run` measures one pair, a failure is recorded and the next goes on. */
  private async eachPair(what: string, run: (strategy: BalancingStrategy, transport: ServiceTransport) => Promise<void>): Promise<void> {
    let k = 0;
    for (const strategy of this.runnable()) {
      // A strategy none of the transports goes through (the broker strategy in a run without a brokered
      // transport, the default) starts nothing and is not reported: no pair of it was asked for.
      if (this.options.transports.every((t) => strategy.notFor[t])) continue;
      try {
        await this.startApps(strategy, this.replicas);
        if (this.gone.size > 0) {
          this.gone.clear(); // started again with the others: an endpoint again
          await this.publishEndpoints();
        }
        if (strategy.address === 'proxy') this.proxy = await this.startProxy();
        for (const transport of rotate(this.options.transports, k++)) {
          const why = strategy.notFor[transport];
          if (why) {
            if (!this.results.skipped.some((s) => s.strategy === strategy.name && s.transport === transport)) this.results.skipped.push({ strategy: strategy.name, transport, why });
            continue;
          }
          try {
            await run(strategy, transport);
          } catch (error) {
            this.results.failures.push({ strategy: strategy.name, transport, error: `${what}: ${error instanceof Error ? error.message : String(error)}` });
            this.progress(`${strategy.name} ${transport} ${what} FAILED: ${this.results.failures.at(-1)!.error}`, this.results);
          }
        }
      } finally {
        await this.proxy?.stop();
        this.proxy = null;
        await this.stopApps();
      }
    }
  }

  private async startApps(strategy: BalancingStrategy, rs: Replica[]): Promise<void> {
    const profilingOf = (r: Replica) => this.options.profiling?.forProcesses([replicaProcess(r, 'server-a'), replicaProcess(r, 'server-b')]) ?? null;
    // The recovery tunings' server side (server-b's keep-alive permission) joins the apps' environment.
    const microservices = { ...this.nest.microservices, env: { ...this.nest.microservices.env, ...this.replicaEnv } };
    const started = await Promise.all(rs.map((r) => startReplicaApps(WORKSPACE_ROOT, path.join(this.runDir, 'logs'), this.set, r, strategy.maxConnectionAgeMs, this.security, microservices, profilingOf(r))));
    started.forEach((a) => this.apps.set(a.replica.name, a));
  }

  private async stopApps(): Promise<void> {
    await Promise.all([...this.apps.values()].map((a) => a.stop()));
    for (const a of this.apps.values()) this.options.profiling?.drop(a.profiling);
    this.apps.clear();
  }

  private startProxy(): Promise<FrontProxy> {
    const binary = resolveEnvoy();
    const routes = [
      { name: 'server-a', listenPort: PROXY_PORTS.http, replicaPort: SERVICE_PORTS.http, protocol: 'http1' as const },
      { name: 'server-b', listenPort: PROXY_PORTS.grpc, replicaPort: SERVICE_PORTS.grpc, protocol: 'http2' as const },
    ];
    const s = this.security;
    const tls = s ? { certificates: s.certificates, clientCertificates: s.mode === 'mtls', replicaName: serviceFqdn(SERVICE_NAME) } : null;
    // A fresh folder per start: one started again after sidecar-kill gets its own admin socket.
    const dir = path.join(this.stage.workDir, this.proxyStarts++ === 0 ? 'front-proxy' : `front-proxy-${this.proxyStarts}`);
    return FrontProxy.start(this.stage.topology, binary, routes, this.live().map((r) => r.address), dir, tls, this.proxyTunings);
  }

  private startDriver(strategy: BalancingStrategy, transport: ServiceTransport, warmupRate: number, recovery: Recovery = 'none', warmupMs = this.settings.warmupMs): Promise<DriverProcess> {
    const port = transport === 'http-json' ? SERVICE_PORTS.http : transport === 'nest-tcp' ? SERVICE_PORTS.tcp : SERVICE_PORTS.grpc;
    return DriverProcess.start(this.stage, {
      caller: {
        transport,
        strategy,
        // A brokered transport dials its broker (the URL in the driver's environment), whatever host and port say.
        host: strategy.address === 'dns-name' ? SERVICE_NAME : strategy.address === 'proxy' ? this.stage.hosts.server : strategy.address === 'broker' ? (this.stage.broker?.host ?? '') : SERVICE_VIP,
        port: strategy.address === 'proxy' ? (transport === 'grpc' ? PROXY_PORTS.grpc : PROXY_PORTS.http) : port,
        rows: SERVICE_ROWS,
        httpConnections: HTTP_CONNECTIONS,
        deadlineMs: this.settings.deadlineMs,
        // The caller's recovery tunings (keep-alive, the retry policy, the pool's timeouts); the proxy's are in Envoy's config.
        recovery: recoveryTunings(recovery, strategy.name, transport).filter((t) => t.app !== 'front proxy').map((t) => t.id),
      },
      warmup: { rate: warmupRate, durationMs: warmupMs },
      maxInFlight: MAX_IN_FLIGHT,
      drainMs: this.settings.drainMs,
      replicas: this.live().map((r) => ({ name: r.name, address: r.address })),
      // server-a's counters for HTTP, server-b's (gRPC) for gRPC and the Nest transports it serves.
      counterPort: transport === 'http-json' ? SERVICE_PORTS.http : SERVICE_PORTS.grpc,
      securityEnv: securityEnv(this.security, 'client') as Record<string, string>,
    }, this.nest.driverEnv);
  }

  /** The broker `transport` goes through, or null. */
  private brokerOf(transport: ServiceTransport): Broker | null {
    const kind = isBrokered(transport) ? brokersOf([transport as TransportName])[0] : null;
    return this.nest.brokers.find((b) => b.kind === kind) ?? null;
  }

  /** Everyone's counters now: the replicas' (through the driver), the driver's CPU, the cgroups' throttling, the delayer, the proxy, the DNS server. */
  private async read(driver: DriverProcess, transport: ServiceTransport): Promise<Reading> {
    const counters = await driver.send({ type: 'counters' }, 'counters');
    const broker = this.brokerOf(transport)?.sample();
    return {
      brokerCpuMs: broker ? broker.cpuUserMs + broker.cpuSystemMs : null,
      counters: counters.replicas,
      driverCpuMs: counters.driverCpuMs,
      throttling: new Map(this.live().map((r) => [r.name, this.set.throttling(r)])),
      delayer: await this.stage.delayerCpu(),
      proxyCpuMs: this.proxy?.cpuMs() ?? null,
      dns: await this.headless.queries(),
    };
  }

  private async sweep(strategy: BalancingStrategy, transport: ServiceTransport): Promise<void> {
    const dnsBefore = await this.headless.queries();
    const driver = await this.startDriver(strategy, transport, this.options.rates[0]);
    this.results.driverStarts.push({ strategy: strategy.name, transport, dns: dnsCountsBetween(dnsBefore, await this.headless.queries()) });
    try {
      for (const rate of this.options.rates) {
        const before = await this.read(driver, transport);
        // --cpu-profile: the step alone (open-loop load for its duration), not the driver's warm-up.
        const profiled = this.options.profiling?.around ?? unprofiled;
        const { result } = await profiled({ case: `${strategy.name} ${rate}/s`, transport }, () => driver.send({ type: 'step', rate, durationMs: this.settings.stepMs }, 'step'), (step) => step.result.ok + step.result.errors);
        const after = await this.read(driver, transport);
        // A replica that died in the step is an event of this cell; the sweep goes on with the others.
        const events = await this.noticeDeaths(strategy, transport, `the step at ${rate}/s`, driver);
        const cell = cellOf(strategy, transport, this.replicas, result, before, after, this.gone);
        if (events.length > 0) cell.events = events;
        this.results.cells.push(cell);
        this.progress(describeStep(cell), this.results);
        if (cell.saturated && events.length === 0) break;
      }
    } finally {
      await driver.stop();
    }
  }

  /**
   * At a fixed rate for three phases: steady; then a new replica joins (its apps start, then it becomes
   * an endpoint: the virtual IP's rules and the headless name list it) and its own counter is polled
   * until it serves a request; then the oldest replica leaves gracefully (taken out of the rules and
   * the name first, then SIGTERM: its apps drain) and is removed. Errors, lost calls and latency per
   * bin are recorded.
   */
  private async changeUnderLoad(strategy: BalancingStrategy, transport: ServiceTransport): Promise<void> {
    if (transport.startsWith('nest-')) {
      this.results.skipped.push({ strategy: strategy.name, transport, why: "change under load: not built for Nest's transports yet (a replica joining a consumer group or queue group, one leaving)" });
      return;
    }
    const rate = this.settings.changeRate;
    const phase = this.settings.changePhaseMs;
    const driver = await this.startDriver(strategy, transport, rate);
    try {
      const started = performance.now();
      const at = () => performance.now() - started;
      const timeline = driver.send({ type: 'timeline', rate, durationMs: 3 * phase, binMs: CHANGE_BIN_MS }, 'timeline');
      const dnsStart = await this.headless.queries();
      await sleep(phase);
      const joining = this.set.add();
      await this.startApps(strategy, [joining]);
      this.replicas.push(joining);
      const dnsJoin = await this.headless.queries();
      await this.publishEndpoints();
      const endpointAtMs = at();
      await this.tellReplicas(driver);
      const baseRequests = requestsOf((await driver.send({ type: 'counters' }, 'counters')).replicas[joining.name]);
      let firstRequestAt: number | null = null;
      let left: Leaving | null = null;
      // Polled until the run's end, so a replica first reached only after the oldest left is seen too;
      // the oldest leaves at 2 phases, or at once if the new one took longer than that to start.
      while (left === null || (firstRequestAt === null && at() < 3 * phase - CHANGE_POLL_MS)) {
        if (left === null && at() >= 2 * phase) left = await this.leaveOldest(driver, at);
        if (firstRequestAt === null && requestsOf((await driver.send({ type: 'counters' }, 'counters')).replicas[joining.name]) > baseRequests) firstRequestAt = at();
        await sleep(CHANGE_POLL_MS);
      }
      const { result, bins } = await timeline;
      const dnsEnd = await this.headless.queries();
      const joinedRequests = requestsOf((await driver.send({ type: 'counters' }, 'counters')).replicas[joining.name]) - baseRequests;
      const firstRequestAfterMs = firstRequestAt === null ? null : firstRequestAt - endpointAtMs;
      const change: ChangeRun = {
        strategy: strategy.name,
        transport,
        offeredPerS: rate,
        ok: result.ok,
        errors: result.errors,
        errorKinds: result.errorKinds,
        lost: result.due - result.ok - result.errors,
        corrected: result.corrected,
        added: {
          name: joining.name,
          endpointAtMs,
          firstRequestAfterMs,
          firstRequestPhase: firstRequestAt === null ? null : firstRequestAt < left.leftAtMs ? 'joined' : 'after the oldest left',
          requests: joinedRequests,
        },
        removed: { name: left.leaving.name, leftAtMs: left.leftAtMs, drainedInMs: left.drainedInMs },
        bins,
        dns: { steady: dnsCountsBetween(dnsStart, dnsJoin), joined: dnsCountsBetween(dnsJoin, left.dns), left: dnsCountsBetween(left.dns, dnsEnd) },
      };
      this.results.changes.push(change);
      this.progress(describeChange(change, result.corrected.p99Ms), this.results);
    } finally {
      await driver.stop();
    }
  }

  /** The oldest replica leaves gracefully: out of the endpoints first, then its apps drain and stop, then it is removed. */
  private async leaveOldest(driver: DriverProcess, at: () => number): Promise<Leaving> {
    const leaving = this.replicas.shift()!;
    const dns = await this.headless.queries();
    await this.publishEndpoints();
    const leftAtMs = at();
    await this.apps.get(leaving.name)?.stop();
    this.options.profiling?.drop(this.apps.get(leaving.name)?.profiling);
    this.apps.delete(leaving.name);
    const drainedInMs = at() - leftAtMs;
    this.set.remove(leaving);
    await this.tellReplicas(driver);
    return { leaving, leftAtMs, drainedInMs, dns };
  }

  /** The driver reads the counters of the replicas now listed. */
  private async tellReplicas(driver: DriverProcess): Promise<void> {
    await driver.send({ type: 'replicas', replicas: this.live().map((r) => ({ name: r.name, address: r.address })) }, 'replicas');
  }

  /** The Service's endpoints are the replicas now listed: the virtual IP's rules, the headless name's records, Envoy's EDS. */
  private async publishEndpoints(): Promise<void> {
    const now = this.live().map((r) => r.address);
    applyVirtualIp(this.stage.topology, VIP_PORTS, now);
    await this.headless.setEndpoints(now);
    this.proxy?.setEndpoints(now);
  }
}

type Leaving = { leaving: Replica; leftAtMs: number; drainedInMs: number; dns: DnsCounts };

/** One sweep step's line of progress. */
function describeStep(cell: ServiceCell): string {
  return (
    `${cell.strategy} ${cell.transport} at ${cell.offeredPerS}/s: ${Math.round(cell.throughputPerS)}/s, p99 ${cell.corrected.p99Ms.toFixed(1)} ms, errors ${cell.errors}, shares ${cell.replicas.map((r) => r.requests).join('/')}` +
    `${cell.cpuPer1000CallsMs === null ? '' : `, ${Math.round(cell.cpuPer1000CallsMs)} ms CPU per 1,000 calls`}, ${cell.dns.queries} DNS queries${cell.saturated ? ` — saturated (${cell.saturated})` : ''}`
  );
}

/** A change-under-load run's line of progress. */
function describeChange(change: ChangeRun, p99Ms: number): string {
  const { added, removed } = change;
  return (
    `${change.strategy} ${change.transport} under change at ${change.offeredPerS}/s: ${added.name} joined, first request ${added.firstRequestAfterMs === null ? 'never in the run' : `after ${Math.round(added.firstRequestAfterMs)} ms (${added.firstRequestPhase})`}; ` +
    `${removed.name} left, drained in ${Math.round(removed.drainedInMs)} ms; ${change.errors} errors, ${change.lost} lost, p99 ${p99Ms.toFixed(1)} ms; ` +
    `DNS queries ${change.dns.steady.queries}/${change.dns.joined.queries}/${change.dns.left.queries} (steady/joined/left)`
  );
}

/** A sweep step as a cell: the driver's figures and every replica's share of the calls and CPU, from the counters before and after it. */
function cellOf(strategy: BalancingStrategy, transport: ServiceTransport, replicas: readonly Replica[], step: StepResult, before: Reading, after: Reading, gone: ReadonlyMap<string, ReplicaDeath>): ServiceCell {
  const shares: ReplicaShare[] = replicas.map((r) => {
    const a = after.counters[r.name];
    const b = before.counters[r.name];
    const died = gone.get(r.name);
    if (died) return { name: r.name, requests: 0, cpuMs: 0, throttling: null, gone: died };
    if (!a || !b || 'error' in a || 'error' in b) return { name: r.name, requests: 0, cpuMs: 0, throttling: null, unread: (a && 'error' in a && a.error) || (b && 'error' in b && b.error) || 'no reading' };
    const tb = before.throttling.get(r.name) ?? null;
    const ta = after.throttling.get(r.name) ?? null;
    return {
      name: r.name,
      requests: (a.requests ?? 0) - (b.requests ?? 0),
      cpuMs: a.cpuUserMs + a.cpuSystemMs - (b.cpuUserMs + b.cpuSystemMs),
      throttling: tb && ta ? throttlingBetween(tb, ta) : null,
    };
  });
  const delayer = before.delayer && after.delayer ? delayerCpuBetween(before.delayer, after.delayer) : null;
  const cpu = {
    driver: step.driverCpuMs,
    replicas: shares.reduce((n, s) => n + s.cpuMs, 0),
    delayer: delayer?.cpuMs ?? null,
    receive: delayer?.receiveCpuMs ?? null,
    proxy: before.proxyCpuMs !== null && after.proxyCpuMs !== null ? after.proxyCpuMs - before.proxyCpuMs : null,
    broker: before.brokerCpuMs !== null && after.brokerCpuMs !== null ? after.brokerCpuMs - before.brokerCpuMs : null,
  };
  const total = cpu.driver + cpu.replicas + (cpu.delayer ?? 0) + (cpu.receive ?? 0) + (cpu.proxy ?? 0) + (cpu.broker ?? 0);
  return {
    strategy: strategy.name,
    transport,
    offeredPerS: step.rate,
    ok: step.ok,
    errors: step.errors,
    errorKinds: step.errorKinds,
    throughputPerS: step.throughputPerS,
    corrected: step.corrected,
    service: step.service,
    maxSendLagMs: step.maxSendLagMs,
    replicas: shares,
    cpuMs: cpu,
    cpuPer1000CallsMs: step.ok > 0 ? (1000 * total) / step.ok : null,
    saturated: saturation(step),
    dns: dnsCountsBetween(before.dns, after.dns),
  };
}

const CHANGE_BIN_MS = 250;
const CHANGE_POLL_MS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const requestsOf = (sample: ProcessSample | { error: string } | undefined) => (sample && !('error' in sample) ? (sample.requests ?? 0) : 0);

/** What a strategy needs that this machine lacks, or null. */
function strategyUnavailable(strategy: BalancingStrategy): string | null {
  if (strategy.address === 'proxy') {
    try {
      resolveEnvoy(); // the pinned Envoy from the bench's cache, fetched once (path's installer) if missing
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
  return null;
}

export function parseStrategies(names: readonly string[]): BalancingStrategy[] {
  return [...new Set(names)].map(findStrategy);
}
