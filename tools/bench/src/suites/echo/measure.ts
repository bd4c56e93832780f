import { buildEchoContent } from '@bench/samples';
import { median, type Failure } from '../../model';
import { ECHO_CALLERS, echoBidiCaller, type Servers } from '../callers/echo-callers';
import { quantileCurve, summarizeLatencies, type LatencySummary } from '../common/latency';
import { rotate, timeSequentialCalls, warmUp } from '../common/sequential';
import type { EchoTransportRecord } from './transports';
import { callFailure, describeFailure } from '../../measure';
import { unprofiled, type Profiled } from '../common/profiling';

export interface EchoSettings extends Record<string, number> {
  calls: number;
  rounds: number;
  warmup: number;
  contentBytes: number;
  streamOpens: number;
}

export interface EchoRound {
  round: number;
  elapsedMs: number;
  jobsPerS: number;
}

export interface EchoCell {
  transport: string;
  calls: number;
  rounds: EchoRound[];
  /** Median over rounds of the elapsed time of `calls` calls. */
  elapsedMs: number;
  jobsPerS: number;
  /** Every call of every round. */
  latency: LatencySummary;
  /** 201 quantiles (0, 0.5, … 100 %) of the per-call latency, for the percentile chart. */
  curveMs: number[];
}

/** What opening and closing a stream costs, next to one unary call (the experiment's caveat). */
export interface StreamCost {
  opens: number;
  /** New stream on a connected channel, one message, its reply. */
  openAndFirstReplyMs: LatencySummary;
  /** end() to the server's status. */
  closeMs: LatencySummary;
}

export interface EchoResults {
  cells: EchoCell[];
  /** Each failed measurement and why, as bench:all records a failed cell (kind and message). */
  failures: Array<{ transport: string; round: number; failure: Failure }>;
  streamCost: StreamCost | null;
}

export async function measureEcho(
  servers: Servers,
  transports: readonly EchoTransportRecord[],
  settings: EchoSettings,
  progress: (line: string, partial: EchoResults) => void,
  profiled: Profiled = unprofiled,
): Promise<EchoResults> {
  const content = buildEchoContent(settings.contentBytes);
  const raw = new Map<string, { rounds: EchoRound[]; latencies: number[] }>();
  const results: EchoResults = { cells: [], failures: [], streamCost: null };
  for (let round = 0; round < settings.rounds; round++) {
    for (const transport of rotate(transports, round)) {
      try {
        // One connection (or channel, or stream) per transport and round, warmed up, then timed as a whole.
        const caller = await ECHO_CALLERS[transport.id](servers, content);
        let run;
        try {
          await warmUp(caller, settings.warmup);
          // --cpu-profile: the timed loop alone, a unit per transport (its rounds merged).
          run = await profiled({ case: `echo ${settings.contentBytes} B`, transport: transport.id }, () => timeSequentialCalls(caller, settings.calls), () => settings.calls);
        } finally {
          await caller.close();
        }
        const elapsedMs = run.elapsedMs;
        const entry = raw.get(transport.id) ?? { rounds: [], latencies: [] };
        entry.rounds.push({ round, elapsedMs, jobsPerS: (1000 * settings.calls) / elapsedMs });
        entry.latencies.push(...run.latenciesMs);
        raw.set(transport.id, entry);
        results.cells = summarize(raw, settings.calls);
        progress(`round ${round + 1}/${settings.rounds} ${transport.id}: ${settings.calls} calls in ${(elapsedMs / 1000).toFixed(3)} s`, results);
      } catch (error) {
        results.failures.push({ transport: transport.id, round, failure: callFailure(error) });
        progress(`round ${round + 1}/${settings.rounds} ${transport.id} FAILED: ${describeFailure(results.failures.at(-1)!.failure)}`, results);
      }
    }
  }
  if (settings.streamOpens > 0) {
    results.streamCost = await measureStreamCost(servers, content, settings.streamOpens);
    progress(`stream open + first reply p50 ${results.streamCost.openAndFirstReplyMs.p50Ms.toFixed(3)} ms, close p50 ${results.streamCost.closeMs.p50Ms.toFixed(3)} ms`, results);
  }
  return results;
}

function summarize(raw: Map<string, { rounds: EchoRound[]; latencies: number[] }>, calls: number): EchoCell[] {
  return [...raw].map(([transport, { rounds, latencies }]) => {
    const elapsedMs = median(rounds.map((r) => r.elapsedMs));
    return { transport, calls, rounds, elapsedMs, jobsPerS: (1000 * calls) / elapsedMs, latency: summarizeLatencies(latencies), curveMs: quantileCurve(latencies) };
  });
}

/** `opens` streams one after the other on one connected channel: open, one echo, end, status. */
async function measureStreamCost(servers: Servers, content: string, opens: number): Promise<StreamCost> {
  const openMs: number[] = [];
  const closeMs: number[] = [];
  for (let i = 0; i < opens + 1; i++) {
    const caller = await echoBidiCaller(servers, content);
    const t0 = performance.now();
    await caller.call();
    const t1 = performance.now();
    await caller.close();
    const t2 = performance.now();
    // The first stream of a process pays for lazy set-up inside grpc-js: not what a stream costs.
    if (i === 0) continue;
    openMs.push(t1 - t0);
    closeMs.push(t2 - t1);
  }
  return { opens, openAndFirstReplyMs: summarizeLatencies(openMs), closeMs: summarizeLatencies(closeMs) };
}
