import { mean, median, type Failure } from '../../results';
import type { Servers } from '../callers/echo-callers';
import { LOOKUP_CALLERS } from '../callers/lookup-callers';
import { quantileCurve, summarizeLatencies, type LatencySummary } from '../common/latency';
import { rotate, timeSequentialCalls, warmUp } from '../common/sequential';
import type { LatencyTransportRecord } from './transports';
import { callFailure, describeFailure } from '../../measure';

export interface LatencySettings extends Record<string, number> {
  calls: number;
  rounds: number;
  warmup: number;
}

export interface LatencyCell {
  transport: string;
  latency: LatencySummary;
  /** 201 quantiles of the timed calls, for the percentile curve. */
  curveMs: number[];
  /** The first call of each round, on a brand-new client: connection set-up included. */
  firstCallMs: number[];
  /** Mean TCP connect time of the timed calls that opened a connection, and its share of their mean latency. */
  connect: { calls: number; meanMs: number; shareOfMean: number } | null;
}

export interface LatencyResults {
  cells: LatencyCell[];
  /** Each failed measurement and why, as bench:all records a failed cell (kind and message). */
  failures: Array<{ transport: string; round: number; failure: Failure }>;
}

const USER_ID = 42;

export async function measureLatency(
  servers: Servers,
  transports: readonly LatencyTransportRecord[],
  settings: LatencySettings,
  progress: (line: string, partial: LatencyResults) => void,
): Promise<LatencyResults> {
  const raw = new Map<string, { latencies: number[]; first: number[]; connects: number[] }>();
  const results: LatencyResults = { cells: [], failures: [] };
  for (let round = 0; round < settings.rounds; round++) {
    for (const transport of rotate(transports, round)) {
      try {
        const caller = await LOOKUP_CALLERS[transport.id](servers, USER_ID);
        const entry = raw.get(transport.id) ?? { latencies: [], first: [], connects: [] };
        try {
          const t0 = performance.now();
          await caller.call();
          entry.first.push(performance.now() - t0);
          await warmUp(caller, settings.warmup);
          const run = await timeSequentialCalls(caller, settings.calls);
          entry.latencies.push(...run.latenciesMs);
          entry.connects.push(...run.connectMs);
        } finally {
          await caller.close();
        }
        raw.set(transport.id, entry);
        results.cells = summarize(raw);
        const cell = results.cells.find((c) => c.transport === transport.id)!;
        progress(`round ${round + 1}/${settings.rounds} ${transport.id}: p50 ${cell.latency.p50Ms.toFixed(3)} ms so far`, results);
      } catch (error) {
        results.failures.push({ transport: transport.id, round, failure: callFailure(error) });
        progress(`round ${round + 1}/${settings.rounds} ${transport.id} FAILED: ${describeFailure(results.failures.at(-1)!.failure)}`, results);
      }
    }
  }
  return results;
}

function summarize(raw: Map<string, { latencies: number[]; first: number[]; connects: number[] }>): LatencyCell[] {
  return [...raw].map(([transport, { latencies, first, connects }]) => {
    const latency = summarizeLatencies(latencies);
    const connect = connects.length > 0 ? { calls: connects.length, meanMs: mean(connects), shareOfMean: mean(connects) / latency.meanMs } : null;
    return { transport, latency, curveMs: quantileCurve(latencies), firstCallMs: first, connect };
  });
}

/** The median first call, for tables. */
export function firstCallMedian(cell: LatencyCell): number {
  return median(cell.firstCallMs);
}
