import { addPathCounters, mean, median, pathCountersBetween, type Failure, type PathCounters } from '../../model';
import type { Servers } from '../callers/echo-callers';
import { LOOKUP_CALLERS } from '../callers/lookup-callers';
import { quantileCurve, summarizeLatencies, type LatencySummary } from '../common/latency';
import { rotate, timeSequentialCalls, warmUp } from '../common/sequential';
import type { LatencyTransportRecord } from './transports';
import { callFailure, describeFailure } from '../../measure';
import type { PathContext } from '../common/stage-job';
import { predictRoundTrips, type RoundTrips } from './round-trips';
import { unprofiled, type Profiled } from '../common/profiling';

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
  /** Across a stage: what the path's DNS server and sidecars counted during the timed calls (totals over `calls`). */
  path?: { calls: number; counters: PathCounters };
  /** Across a stage: the round trips one call should take on this path, and that many calibrated RTTs. */
  predicted?: { roundTrips: RoundTrips; ms: number };
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
  path: PathContext | null = null,
  profiled: Profiled = unprofiled,
): Promise<LatencyResults> {
  const raw = new Map<string, Raw>();
  const results: LatencyResults = { cells: [], failures: [] };
  for (let round = 0; round < settings.rounds; round++) {
    for (const transport of rotate(transports, round)) {
      try {
        const caller = await LOOKUP_CALLERS[transport.id](servers, USER_ID);
        const entry: Raw = raw.get(transport.id) ?? { transport, latencies: [], first: [], connects: [], counted: [] };
        try {
          const t0 = performance.now();
          await caller.call();
          entry.first.push(performance.now() - t0);
          await warmUp(caller, settings.warmup);
          const before = await path?.counters();
          // --cpu-profile: the timed calls alone, a unit per transport (its rounds merged).
          const run = await profiled({ case: 'lookup', transport: transport.id }, () => timeSequentialCalls(caller, settings.calls), () => settings.calls);
          if (path && before) entry.counted.push(pathCountersBetween(before, await path.counters()));
          entry.latencies.push(...run.latenciesMs);
          entry.connects.push(...run.connectMs);
        } finally {
          await caller.close();
        }
        raw.set(transport.id, entry);
        results.cells = summarize(raw, path, servers.security.mode !== 'plain');
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

interface Raw {
  transport: LatencyTransportRecord;
  latencies: number[];
  first: number[];
  connects: number[];
  /** The path's counters over each round's timed calls. */
  counted: PathCounters[];
}

function summarize(raw: Map<string, Raw>, path: PathContext | null, secure: boolean): LatencyCell[] {
  return [...raw].map(([id, { transport, latencies, first, connects, counted }]) => {
    const latency = summarizeLatencies(latencies);
    const connect = connects.length > 0 ? { calls: connects.length, meanMs: mean(connects), shareOfMean: mean(connects) / latency.meanMs } : null;
    const cell: LatencyCell = { transport: id, latency, curveMs: quantileCurve(latencies), firstCallMs: first, connect };
    if (!path) return cell;
    const roundTrips = predictRoundTrips(transport, path.features, secure);
    return { ...cell, path: { calls: latencies.length, counters: sumCounters(counted) }, predicted: { roundTrips, ms: roundTrips.total * path.rttMs } };
  });
}

/** The counters of several rounds added up. */
function sumCounters(list: readonly PathCounters[]): PathCounters {
  return list.reduce<PathCounters>((total, c) => addPathCounters(total, c), { dns: null, envoy: null });
}

/** The median first call, for tables. */
export function firstCallMedian(cell: LatencyCell): number {
  return median(cell.firstCallMs);
}
