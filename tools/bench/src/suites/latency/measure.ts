import { mean, median } from '../../results';
import type { Servers } from '../callers/echo-callers';
import { LOOKUP_CALLERS } from '../callers/lookup-callers';
import { quantileCurve, summarizeLatencies, type LatencySummary } from '../common/latency';
import { rotate, timeSequentialCalls, warmUp } from '../common/sequential';
import type { LatencyContender } from './contenders';
import { errorText } from '../../cli';

export interface LatencySettings extends Record<string, number> {
  calls: number;
  rounds: number;
  warmup: number;
}

export interface LatencyCell {
  contender: string;
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
  failures: Array<{ contender: string; round: number; error: string }>;
}

const USER_ID = 42;

export async function measureLatency(
  servers: Servers,
  contenders: readonly LatencyContender[],
  settings: LatencySettings,
  progress: (line: string, partial: LatencyResults) => void,
): Promise<LatencyResults> {
  const raw = new Map<string, { latencies: number[]; first: number[]; connects: number[] }>();
  const results: LatencyResults = { cells: [], failures: [] };
  for (let round = 0; round < settings.rounds; round++) {
    for (const contender of rotate(contenders, round)) {
      try {
        const caller = await LOOKUP_CALLERS[contender.id](servers, USER_ID);
        const entry = raw.get(contender.id) ?? { latencies: [], first: [], connects: [] };
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
        raw.set(contender.id, entry);
        results.cells = summarize(raw);
        const cell = results.cells.find((c) => c.contender === contender.id)!;
        progress(`round ${round + 1}/${settings.rounds} ${contender.id}: p50 ${cell.latency.p50Ms.toFixed(3)} ms so far`, results);
      } catch (error) {
        results.failures.push({ contender: contender.id, round, error: errorText(error) });
        progress(`round ${round + 1}/${settings.rounds} ${contender.id} FAILED: ${results.failures.at(-1)!.error}`, results);
      }
    }
  }
  return results;
}

function summarize(raw: Map<string, { latencies: number[]; first: number[]; connects: number[] }>): LatencyCell[] {
  return [...raw].map(([contender, { latencies, first, connects }]) => {
    const latency = summarizeLatencies(latencies);
    const connect = connects.length > 0 ? { calls: connects.length, meanMs: mean(connects), shareOfMean: mean(connects) / latency.meanMs } : null;
    return { contender, latency, curveMs: quantileCurve(latencies), firstCallMs: first, connect };
  });
}

/** The median first call, for tables. */
export function firstCallMedian(cell: LatencyCell): number {
  return median(cell.firstCallMs);
}
