// bench:service's run: N replicas on the stage's server side, each strategy's addressing in place, and
// for every strategy × transport a rate sweep by the open-loop driver in the client namespace, each
// step with every replica's own counters (requests, CPU), its cgroup's throttling, the driver's and
// the delayer's CPU.
import * as path from 'node:path';
import type { ProcessSample } from '@bench/config';
import type { Stage } from '../../network';
import { FrontProxy, HeadlessService, resolveEnvoy, applyVirtualIp, dnsCountsBetween, findStrategy, SERVICE_NAME, SERVICE_TRANSPORTS, SERVICE_VIP, virtualIpRulesInForce, type BalancingStrategy, type DnsCounts, type ServiceTransport, type StrategyName } from '../../network';
import { throttlingBetween, type CpuThrottling } from '../../network';
import { ReplicaSet, type Replica, type ReplicaRecord } from '../../network';
import { delayerCpuBetween, type DelayerCpu } from '../../network';
import type { HdrSummary } from '../common/hdr';
import { rotate } from '../common/sequential';
import { DriverProcess } from './driver-process';
import type { StepResult } from './driver';
import type { TimelineBin } from './timeline';
import { HTTP_CONNECTIONS, MAX_IN_FLIGHT, PROXY_PORTS, SATURATION, SERVICE_PORTS, SERVICE_ROWS } from './plan';
import { startReplicaApps, type ReplicaApps } from './replica-apps';
import { WORKSPACE_ROOT } from '../common/suite-main';

export interface ServiceSettings extends Record<string, number> {
  stepMs: number;
  warmupMs: number;
  drainMs: number;
  deadlineMs: number;
  /** Offered rate of the change-under-load runs (calls/s); 0 runs none. */
  changeRate: number;
  /** Each of their three phases: steady, after a replica joined, after one left (ms). */
  changePhaseMs: number;
}

export interface ServiceOptions {
  replicas: number;
  /** Thousandths of a core per replica, or null. */
  millicores: number | null;
  strategies: BalancingStrategy[];
  rates: readonly number[];
}

export interface ReplicaShare {
  name: string;
  /** Sample requests the replica's app counted in the step. */
  requests: number;
  /** CPU its app (the one serving this transport) used in the step, by its own reading. */
  cpuMs: number;
  /** From its cgroup's cpu.stat; null without a CPU limit. */
  throttling: CpuThrottling | null;
}

/** One step of a sweep: the driver's figures (latency from each call's due time in `corrected`, from its sending in `service`) and everyone's counters. */
export interface ServiceCell extends Pick<StepResult, 'ok' | 'errors' | 'errorKinds' | 'throughputPerS' | 'corrected' | 'service' | 'maxSendLagMs'> {
  strategy: StrategyName;
  transport: ServiceTransport;
  offeredPerS: number;
  replicas: ReplicaShare[];
  cpuMs: { driver: number; replicas: number; delayer: number | null; receive: number | null; proxy: number | null };
  /** Everyone's CPU (driver, replicas, proxy, delayer and the servers' receive thread) per 1,000 completed calls, ms. */
  cpuPer1000CallsMs: number | null;
  saturated: string | null;
  /** Queries the cluster DNS received in the step (from its log). */
  dns: DnsCounts;
}

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
}

type Reading = { counters: Record<string, ProcessSample | { error: string }>; driverCpuMs: number; throttling: Map<string, CpuThrottling | null>; delayer: DelayerCpu | null; proxyCpuMs: number | null; dns: DnsCounts };

/** Why a step counts as saturated (SATURATION), or null. */
export function saturation(step: Pick<StepResult, 'rate' | 'throughputPerS' | 'errors' | 'due'> & { corrected: Pick<HdrSummary, 'p99Ms'> }): string | null {
  if (step.errors > SATURATION.maxErrorShare * step.due) return `${step.errors} errors of ${step.due} calls`;
  if (step.throughputPerS < SATURATION.minThroughputShare * step.rate) return `${Math.round(step.throughputPerS)} of ${step.rate} calls/s completed`;
  if (step.corrected.p99Ms > SATURATION.maxP99Ms) return `p99 ${Math.round(step.corrected.p99Ms)} ms`;
  return null;
}

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
  applyVirtualIp(t, [SERVICE_PORTS.http, SERVICE_PORTS.grpc], addresses);
  const headless = await HeadlessService.start(stage, addresses);
  const results: ServiceResults = { replicas: set.record(), cells: [], changes: [], driverStarts: [], skipped: [], failures: [] };
  addProvenance({ service: { replicas: set.record(), virtualIp: SERVICE_VIP, virtualIpRules: virtualIpRulesInForce(t), headlessName: headless.record(), ports: SERVICE_PORTS } });

  const read = async (driver: DriverProcess): Promise<Reading> => {
    const counters = await driver.send({ type: 'counters' }, 'counters');
    return {
      counters: counters.replicas,
      driverCpuMs: counters.driverCpuMs,
      throttling: new Map(replicas.map((r) => [r.name, set.throttling(r)])),
      delayer: await stage.delayerCpu(),
      proxyCpuMs: proxy?.cpuMs() ?? null,
      dns: await headless.queries(),
    };
  };

  const apps = new Map<string, ReplicaApps>();
  let proxy: FrontProxy | null = null;
  const startApps = async (strategy: BalancingStrategy, rs: Replica[]) => {
    const started = await Promise.all(rs.map((r) => startReplicaApps(WORKSPACE_ROOT, path.join(runDir, 'logs'), set, r, strategy.maxConnectionAgeMs)));
    started.forEach((a) => apps.set(a.replica.name, a));
  };
  const stopApps = async () => {
    await Promise.all([...apps.values()].map((a) => a.stop()));
    apps.clear();
  };
  const runnable = options.strategies.filter((strategy) => {
    const unavailable = strategyUnavailable(strategy);
    if (unavailable) {
      results.skipped.push({ strategy: strategy.name, transport: 'all', why: unavailable });
      progress(`${strategy.name}: not run: ${unavailable}`, results);
    }
    return !unavailable;
  });
  // Each strategy × transport it applies to, with the strategy's servers up; `what` runs one pair.
  const eachPair = async (what: string, run: (strategy: BalancingStrategy, transport: ServiceTransport) => Promise<void>) => {
    let k = 0;
    for (const strategy of runnable) {
      try {
        await startApps(strategy, replicas);
        if (strategy.address === 'proxy') proxy = await startProxy();
        for (const transport of rotate(SERVICE_TRANSPORTS, k++)) {
          const why = strategy.notFor[transport];
          if (why) {
            if (!results.skipped.some((s) => s.strategy === strategy.name && s.transport === transport)) results.skipped.push({ strategy: strategy.name, transport, why });
            continue;
          }
          try {
            await run(strategy, transport);
          } catch (error) {
            results.failures.push({ strategy: strategy.name, transport, error: `${what}: ${error instanceof Error ? error.message : String(error)}` });
            progress(`${strategy.name} ${transport} ${what} FAILED: ${results.failures.at(-1)!.error}`, results);
          }
        }
      } finally {
        await proxy?.stop();
        proxy = null;
        await stopApps();
      }
    }
  };

  function startProxy(): Promise<FrontProxy> {
    const binary = resolveEnvoy();
    const routes = [
      { name: 'server-a', listenPort: PROXY_PORTS.http, replicaPort: SERVICE_PORTS.http, protocol: 'http1' as const },
      { name: 'server-b', listenPort: PROXY_PORTS.grpc, replicaPort: SERVICE_PORTS.grpc, protocol: 'http2' as const },
    ];
    return FrontProxy.start(t, binary, routes, replicas.map((r) => r.address), path.join(stage.workDir, 'front-proxy'));
  }
  try {
    await eachPair('sweep', sweep);
    if (settings.changeRate > 0) await eachPair('change under load', changeUnderLoad);
    return results;
  } finally {
    headless.stop(); // its process would go with the server namespace anyway; its file goes with the work folder
  }

  function startDriver(strategy: BalancingStrategy, transport: ServiceTransport, warmupRate: number): Promise<DriverProcess> {
    const port = transport === 'grpc' ? SERVICE_PORTS.grpc : SERVICE_PORTS.http;
    return DriverProcess.start(stage, {
      caller: {
        transport,
        strategy,
        host: strategy.address === 'dns-name' ? SERVICE_NAME : strategy.address === 'proxy' ? stage.hosts.server : SERVICE_VIP,
        port: strategy.address === 'proxy' ? (transport === 'grpc' ? PROXY_PORTS.grpc : PROXY_PORTS.http) : port,
        rows: SERVICE_ROWS,
        httpConnections: HTTP_CONNECTIONS,
        deadlineMs: settings.deadlineMs,
      },
      warmup: { rate: warmupRate, durationMs: settings.warmupMs },
      maxInFlight: MAX_IN_FLIGHT,
      drainMs: settings.drainMs,
      replicas: replicas.map((r) => ({ name: r.name, address: r.address })),
      counterPort: port,
    });
  }

  async function sweep(strategy: BalancingStrategy, transport: ServiceTransport): Promise<void> {
    const dnsBefore = await headless.queries();
    const driver = await startDriver(strategy, transport, options.rates[0]);
    results.driverStarts.push({ strategy: strategy.name, transport, dns: dnsCountsBetween(dnsBefore, await headless.queries()) });
    try {
      for (const rate of options.rates) {
        const before = await read(driver);
        const { result } = await driver.send({ type: 'step', rate, durationMs: settings.stepMs }, 'step');
        const after = await read(driver);
        const cell = cellOf(strategy, transport, result, before, after);
        results.cells.push(cell);
        progress(
          `${strategy.name} ${transport} at ${rate}/s: ${Math.round(cell.throughputPerS)}/s, p99 ${cell.corrected.p99Ms.toFixed(1)} ms, errors ${cell.errors}, shares ${cell.replicas.map((r) => r.requests).join('/')}` +
            `${cell.cpuPer1000CallsMs === null ? '' : `, ${Math.round(cell.cpuPer1000CallsMs)} ms CPU per 1,000 calls`}, ${cell.dns.queries} DNS queries${cell.saturated ? ` — saturated (${cell.saturated})` : ''}`,
          results,
        );
        if (cell.saturated) break;
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
  async function changeUnderLoad(strategy: BalancingStrategy, transport: ServiceTransport): Promise<void> {
    const rate = settings.changeRate;
    const phase = settings.changePhaseMs;
    const driver = await startDriver(strategy, transport, rate);
    try {
      const started = performance.now();
      const at = () => performance.now() - started;
      const timeline = driver.send({ type: 'timeline', rate, durationMs: 3 * phase, binMs: CHANGE_BIN_MS }, 'timeline');
      const dnsStart = await headless.queries();
      await sleep(phase);
      const joining = set.add();
      await startApps(strategy, [joining]);
      replicas.push(joining);
      const dnsJoin = await headless.queries();
      await publishEndpoints();
      const endpointAtMs = at();
      await driver.send({ type: 'replicas', replicas: replicas.map((r) => ({ name: r.name, address: r.address })) }, 'replicas');
      const base = await driver.send({ type: 'counters' }, 'counters');
      const baseRequests = requestsOf(base.replicas[joining.name]);
      let firstRequestAt: number | null = null;
      let left: { leaving: Replica; leftAtMs: number; drainedInMs: number; dns: DnsCounts } | null = null;
      // Polled until the run's end, so a replica first reached only after the oldest left is seen too;
      // the oldest leaves at 2 phases, or at once if the new one took longer than that to start.
      while (left === null || (firstRequestAt === null && at() < 3 * phase - CHANGE_POLL_MS)) {
        if (left === null && at() >= 2 * phase) {
          const leaving = replicas.shift()!;
          const dns = await headless.queries();
          await publishEndpoints();
          const leftAtMs = at();
          await apps.get(leaving.name)?.stop();
          apps.delete(leaving.name);
          left = { leaving, leftAtMs, drainedInMs: at() - leftAtMs, dns };
          set.remove(leaving);
          await driver.send({ type: 'replicas', replicas: replicas.map((r) => ({ name: r.name, address: r.address })) }, 'replicas');
        }
        if (firstRequestAt === null) {
          const now = await driver.send({ type: 'counters' }, 'counters');
          if (requestsOf(now.replicas[joining.name]) > baseRequests) firstRequestAt = at();
        }
        await sleep(CHANGE_POLL_MS);
      }
      const { result, bins } = await timeline;
      const dnsEnd = await headless.queries();
      const end = await driver.send({ type: 'counters' }, 'counters');
      const { leaving, leftAtMs, drainedInMs } = left;
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
          firstRequestPhase: firstRequestAt === null ? null : firstRequestAt < leftAtMs ? 'joined' : 'after the oldest left',
          requests: requestsOf(end.replicas[joining.name]) - baseRequests,
        },
        removed: { name: leaving.name, leftAtMs, drainedInMs },
        bins,
        dns: { steady: dnsCountsBetween(dnsStart, dnsJoin), joined: dnsCountsBetween(dnsJoin, left.dns), left: dnsCountsBetween(left.dns, dnsEnd) },
      };
      results.changes.push(change);
      progress(
        `${strategy.name} ${transport} under change at ${rate}/s: ${joining.name} joined, first request ${firstRequestAfterMs === null ? 'never in the run' : `after ${Math.round(firstRequestAfterMs)} ms (${change.added.firstRequestPhase})`}; ` +
          `${leaving.name} left, drained in ${Math.round(drainedInMs)} ms; ${result.errors} errors, ${change.lost} lost, p99 ${result.corrected.p99Ms.toFixed(1)} ms; ` +
          `DNS queries ${change.dns.steady.queries}/${change.dns.joined.queries}/${change.dns.left.queries} (steady/joined/left)`,
        results,
      );
    } finally {
      await driver.stop();
    }
  }

  /** The Service's endpoints are the replicas now listed: the virtual IP's rules, the headless name's records, Envoy's EDS. */
  async function publishEndpoints(): Promise<void> {
    const now = replicas.map((r) => r.address);
    applyVirtualIp(t, [SERVICE_PORTS.http, SERVICE_PORTS.grpc], now);
    await headless.setEndpoints(now);
    proxy?.setEndpoints(now);
  }

  function cellOf(strategy: BalancingStrategy, transport: ServiceTransport, step: StepResult, before: Reading, after: Reading): ServiceCell {
    const shares: ReplicaShare[] = replicas.map((r) => {
      const a = after.counters[r.name];
      const b = before.counters[r.name];
      if (!a || !b || 'error' in a || 'error' in b) throw new Error(`replica ${r.name}'s counters: ${(a && 'error' in a && a.error) || (b && 'error' in b && b.error) || 'missing'}`);
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
    };
    const total = cpu.driver + cpu.replicas + (cpu.delayer ?? 0) + (cpu.receive ?? 0) + (cpu.proxy ?? 0);
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
