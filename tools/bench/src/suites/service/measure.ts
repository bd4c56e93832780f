// bench:service's run: N replicas on the stage's server side, each strategy's addressing in place, and
// for every strategy × transport a rate sweep by the open-loop driver in the client namespace, each
// step with every replica's own counters (requests, CPU), its cgroup's throttling, the driver's and
// the delayer's CPU.
import * as path from 'node:path';
import type { ProcessSample } from '@bench/config';
import type { Stage } from '../../network';
import { applyVirtualIp, findStrategy, SERVICE_NAME, SERVICE_TRANSPORTS, SERVICE_VIP, virtualIpRulesInForce, writeHeadlessName, type BalancingStrategy, type ServiceTransport, type StrategyName } from '../../network';
import { throttlingBetween, type CpuThrottling } from '../../network';
import { ReplicaSet, type Replica, type ReplicaRecord } from '../../network';
import { delayerCpuBetween, type DelayerCpu } from '../../network';
import type { HdrSummary } from '../common/hdr';
import { rotate } from '../common/sequential';
import { DriverProcess } from './driver-process';
import type { StepResult } from './driver';
import { HTTP_CONNECTIONS, MAX_IN_FLIGHT, SATURATION, SERVICE_PORTS, SERVICE_ROWS } from './plan';
import { startReplicaApps, type ReplicaApps } from './replica-apps';
import { WORKSPACE_ROOT } from '../common/suite-main';

export interface ServiceSettings extends Record<string, number> {
  stepMs: number;
  warmupMs: number;
  drainMs: number;
  deadlineMs: number;
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
}

export interface ServiceResults {
  replicas: ReplicaRecord[];
  cells: ServiceCell[];
  /** Strategy × transport pairs not run, with why (does not apply, or what is missing here). */
  skipped: { strategy: StrategyName; transport: ServiceTransport | 'all'; why: string }[];
  failures: { strategy: StrategyName; transport: ServiceTransport; error: string }[];
}

type Reading = { counters: Record<string, ProcessSample | { error: string }>; driverCpuMs: number; throttling: Map<string, CpuThrottling | null>; delayer: DelayerCpu | null };

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
  const hostsFile = writeHeadlessName(t, addresses);
  const results: ServiceResults = { replicas: set.record(), cells: [], skipped: [], failures: [] };
  addProvenance({ service: { replicas: set.record(), virtualIp: SERVICE_VIP, virtualIpRules: virtualIpRulesInForce(t), headlessName: SERVICE_NAME, hostsFile, ports: SERVICE_PORTS } });

  const read = async (driver: DriverProcess): Promise<Reading> => {
    const counters = await driver.send({ type: 'counters' }, 'counters');
    return { counters: counters.replicas, driverCpuMs: counters.driverCpuMs, throttling: new Map(replicas.map((r) => [r.name, set.throttling(r)])), delayer: await stage.delayerCpu() };
  };

  let k = 0;
  for (const strategy of options.strategies) {
    const unavailable = strategyUnavailable(strategy);
    if (unavailable) {
      results.skipped.push({ strategy: strategy.name, transport: 'all', why: unavailable });
      progress(`${strategy.name}: not run: ${unavailable}`, results);
      continue;
    }
    let apps: ReplicaApps[] = [];
    try {
      apps = await Promise.all(replicas.map((r) => startReplicaApps(WORKSPACE_ROOT, path.join(runDir, 'logs'), set, r, strategy.maxConnectionAgeMs)));
      for (const transport of rotate(SERVICE_TRANSPORTS, k++)) {
        const why = strategy.notFor[transport];
        if (why) {
          results.skipped.push({ strategy: strategy.name, transport, why });
          continue;
        }
        try {
          await sweep(strategy, transport);
        } catch (error) {
          results.failures.push({ strategy: strategy.name, transport, error: error instanceof Error ? error.message : String(error) });
          progress(`${strategy.name} ${transport} FAILED: ${results.failures.at(-1)!.error}`, results);
        }
      }
    } finally {
      await Promise.all(apps.map((a) => a.stop()));
    }
  }
  return results;

  async function sweep(strategy: BalancingStrategy, transport: ServiceTransport): Promise<void> {
    const port = transport === 'grpc' ? SERVICE_PORTS.grpc : SERVICE_PORTS.http;
    const driver = await DriverProcess.start(stage, {
      caller: {
        transport,
        strategy,
        host: strategy.address === 'dns-name' ? SERVICE_NAME : SERVICE_VIP,
        port,
        rows: SERVICE_ROWS,
        httpConnections: HTTP_CONNECTIONS,
        deadlineMs: settings.deadlineMs,
      },
      warmup: { rate: options.rates[0], durationMs: settings.warmupMs },
      maxInFlight: MAX_IN_FLIGHT,
      drainMs: settings.drainMs,
      replicas: replicas.map((r) => ({ name: r.name, address: r.address })),
      counterPort: port,
    });
    try {
      for (const rate of options.rates) {
        const before = await read(driver);
        const { result } = await driver.send({ type: 'step', rate, durationMs: settings.stepMs }, 'step');
        const after = await read(driver);
        const cell = cellOf(strategy, transport, result, before, after);
        results.cells.push(cell);
        progress(
          `${strategy.name} ${transport} at ${rate}/s: ${Math.round(cell.throughputPerS)}/s, p99 ${cell.corrected.p99Ms.toFixed(1)} ms, errors ${cell.errors}, shares ${cell.replicas.map((r) => r.requests).join('/')}` +
            `${cell.cpuPer1000CallsMs === null ? '' : `, ${Math.round(cell.cpuPer1000CallsMs)} ms CPU per 1,000 calls`}${cell.saturated ? ` — saturated (${cell.saturated})` : ''}`,
          results,
        );
        if (cell.saturated) break;
      }
    } finally {
      await driver.stop();
    }
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
      proxy: null,
    };
    const total = cpu.driver + cpu.replicas + (cpu.delayer ?? 0) + (cpu.receive ?? 0);
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
    };
  }
}

/** What a strategy needs that this machine lacks, or null. */
function strategyUnavailable(strategy: BalancingStrategy): string | null {
  if (strategy.address === 'proxy') return 'Envoy (the l7-proxy) is not wired into bench:service yet: see docs/behind-a-service.md';
  return null;
}

export function parseStrategies(names: readonly string[]): BalancingStrategy[] {
  return [...new Set(names)].map(findStrategy);
}
