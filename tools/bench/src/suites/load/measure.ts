import { loadSettings, type ProcessSample } from '@bench/config';
import { callerTls, microserviceCaller, type Caller } from '@bench/transports';
import { LoadTargets } from '../common/load-targets';
import type { Servers } from '../callers/echo-callers';
import { latencyHistogram, summarizeHistogram, type HdrSummary } from '../common/hdr';
import { rotate } from '../common/sequential';
import { autocannonLoad, closedLoad, grpcLoad, type GeneratorRun } from './generators';
import { GENERATOR_BOUND_SHARE, isNestTarget, type LoadTarget, type NestLoadTarget } from './plan';
import { callFailure, describeFailure } from '../../measure';
import type { Failure } from '../../model';
import { unprofiled, type Profiled } from '../common/profiling';

export interface LoadSettings extends Record<string, number> {
  durationMs: number;
  warmupMs: number;
  timeoutS: number;
}

export interface LoadCell {
  target: LoadTarget;
  rows: number;
  concurrency: number;
  calls: number;
  elapsedMs: number;
  requestsPerS: number;
  errors: number;
  timeouts: number;
  errorKinds: Record<string, number>;
  latency: HdrSummary;
  /** CPU time of the loaded server over the cell, as a share of one core (1 = one core busy). */
  serverCpuShare: number;
  serverRssBytes: number;
  /** The same for this process, which generates the load. */
  generatorCpuShare: number;
  /** The generator used ≥ GENERATOR_BOUND_SHARE of a core: the numbers may be its limit, not the server's. */
  generatorBound: boolean;
}

export interface LoadResults {
  cells: LoadCell[];
  /** Each failed measurement and why, as bench:all records a failed cell (kind and message). */
  failures: Array<{ target: string; rows: number; concurrency: number; failure: Failure }>;
}

export interface LoadPlan {
  targets: readonly { id: LoadTarget }[];
  concurrency: readonly number[];
  rows: readonly number[];
}

const cpuMs = (s: ProcessSample) => s.cpuUserMs + s.cpuSystemMs;

/**
 * The Nest transports' callers, one per transport and row count, each made as the Nest client makes its
 * transport (from the variables the apps read: SuiteServers.nestEnv) and connected by a first call before
 * any load (a ClientProxy connects on its first send; a Kafka client joins its group: seconds).
 */
class NestCallers {
  private readonly callers = new Map<string, Promise<Caller>>();

  constructor(
    private readonly nestEnv: Record<string, string>,
    private readonly timeoutS: number,
  ) {}

  /**
   * The caller of `target` for `rows`; the transport's caller for other rows is closed first: one client
   * per transport at a time, as a second Kafka client in the same group would take the replies' partitions.
   */
  async get(target: NestLoadTarget, rows: number): Promise<Caller> {
    const key = `${target}/${rows}`;
    for (const [other, old] of this.callers) {
      if (other.startsWith(`${target}/`) && other !== key) {
        this.callers.delete(other);
        await old.then((c) => c.close(), () => undefined);
      }
    }
    let caller = this.callers.get(key);
    if (!caller) {
      const made = microserviceCaller(target, loadSettings({ ...process.env, ...this.nestEnv }), rows, this.timeoutS * 1000);
      caller = made.connect().then(() => made);
      this.callers.set(key, caller);
    }
    return caller;
  }

  async close(): Promise<void> {
    const made = await Promise.allSettled(this.callers.values());
    await Promise.all(made.map((m) => (m.status === 'fulfilled' ? m.value.close() : undefined)));
  }
}

export async function measureLoad(
  servers: Servers & { nestEnv?: Record<string, string> },
  plan: LoadPlan,
  settings: LoadSettings,
  progress: (line: string, partial: LoadResults) => void,
  profiled: Profiled = unprofiled,
): Promise<LoadResults> {
  const results: LoadResults = { cells: [], failures: [] };
  const targets = new LoadTargets(servers, 1);
  const nest = new NestCallers(servers.nestEnv ?? {}, settings.timeoutS);
  const drive = async (target: LoadTarget, rows: number, concurrency: number, durationMs: number, histogram = latencyHistogram()): Promise<GeneratorRun> => {
    if (target === 'http-json') return autocannonLoad(`${servers.serverAUrl}/server-a/${rows}`, concurrency, durationMs, histogram, settings.timeoutS, callerTls(servers.security));
    if (!isNestTarget(target)) return grpcLoad(targets, rows, concurrency, durationMs, histogram);
    const caller = await nest.get(target, rows);
    return closedLoad(() => caller.call(), concurrency, durationMs, histogram);
  };
  // server-b answers gRPC and every Nest transport: its own reading.
  const metrics = (target: LoadTarget) => (target === 'http-json' ? targets.serverAMetrics() : targets.serverBMetrics());
  let k = 0;
  try {
    for (const rows of plan.rows) {
      for (const concurrency of plan.concurrency) {
        for (const { id: target } of rotate(plan.targets, k++)) {
          try {
            // autocannon does not verify the server's certificate: under TLS the metrics call (a verifying agent) does, before any load.
            if (servers.security.mode !== 'plain') await metrics(target);
            if (settings.warmupMs > 0) await drive(target, rows, concurrency, settings.warmupMs);
            const histogram = latencyHistogram();
            const serverBefore = await metrics(target);
            const cpuBefore = process.cpuUsage();
            // --cpu-profile: the measured step alone (open for its duration), a unit per row count, concurrency and target.
            const run = await profiled({ case: `${rows} row${rows === 1 ? '' : 's'} × ${concurrency}`, transport: target }, () => drive(target, rows, concurrency, settings.durationMs, histogram), (done) => done.calls);
            const cpu = process.cpuUsage(cpuBefore);
            const serverAfter = await metrics(target);
            const generatorCpuShare = (cpu.user + cpu.system) / 1000 / run.elapsedMs;
            results.cells.push({
              target,
              rows,
              concurrency,
              calls: run.calls,
              elapsedMs: run.elapsedMs,
              requestsPerS: (1000 * (run.calls - run.errors - run.timeouts)) / run.elapsedMs,
              errors: run.errors,
              timeouts: run.timeouts,
              errorKinds: run.errorKinds,
              latency: summarizeHistogram(histogram),
              serverCpuShare: (cpuMs(serverAfter) - cpuMs(serverBefore)) / run.elapsedMs,
              serverRssBytes: serverAfter.rssBytes,
              generatorCpuShare,
              generatorBound: generatorCpuShare >= GENERATOR_BOUND_SHARE,
            });
            const rank = (c: LoadCell) => plan.rows.indexOf(c.rows) * 1e6 + plan.concurrency.indexOf(c.concurrency) * 100 + plan.targets.findIndex((t) => t.id === c.target);
            results.cells.sort((a, b) => rank(a) - rank(b));
            const cell = results.cells.find((c) => c.target === target && c.rows === rows && c.concurrency === concurrency)!;
            progress(
              `${rows} row(s) × ${concurrency} in flight, ${target}: ${Math.round(cell.requestsPerS)} req/s, p99 ${cell.latency.p99Ms.toFixed(2)} ms, errors ${run.errors + run.timeouts}, generator CPU ${Math.round(100 * generatorCpuShare)}%`,
              results,
            );
          } catch (error) {
            results.failures.push({ target, rows, concurrency, failure: callFailure(error) });
            progress(`${rows} row(s) × ${concurrency}, ${target} FAILED: ${describeFailure(results.failures.at(-1)!.failure)}`, results);
          }
        }
      }
    }
  } finally {
    targets.close();
    await nest.close();
  }
  return results;
}
