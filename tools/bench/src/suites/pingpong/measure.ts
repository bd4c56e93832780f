import { buildEchoContent } from '@bench/samples';
import { ECHO_CALLERS, type EchoTransport, type Servers } from '../callers/echo-callers';
import { latencyHistogram, recordMs, summarizeHistogram, type HdrSummary } from '../common/hdr';
import { rotate } from '../common/sequential';
import { callFailure, describeFailure } from '../../measure';
import type { Failure } from '../../model';
import { unprofiled, type Profiled } from '../common/profiling';

export interface PingPongSettings extends Record<string, number> {
  durationMs: number;
  warmupMs: number;
}

export interface PingPongCell {
  transport: string;
  payload: string;
  bytes: number;
  elapsedMs: number;
  calls: number;
  callsPerS: number;
  /** Echo content carried per second, both directions (request and reply): the experiment's bandwidth. */
  payloadBytesPerS: number;
  latency: HdrSummary;
}

export interface PingPongResults {
  cells: PingPongCell[];
  /** Each failed measurement and why, as bench:all records a failed cell (kind and message). */
  failures: Array<{ transport: string; payload: string; failure: Failure }>;
}

/**
 * For each payload, each transport in turn (rotating), on a connection of its own: warm up, then send,
 * wait for the reply, send again — the same message — until the duration is over. Every latency goes
 * into an HDR histogram.
 */
export async function measurePingPong(
  servers: Servers,
  transports: readonly { id: EchoTransport }[],
  payloads: readonly { id: string; bytes: number }[],
  settings: PingPongSettings,
  progress: (line: string, partial: PingPongResults) => void,
  profiled: Profiled = unprofiled,
): Promise<PingPongResults> {
  const results: PingPongResults = { cells: [], failures: [] };
  for (const [k, payload] of payloads.entries()) {
    const content = buildEchoContent(payload.bytes);
    for (const transport of rotate(transports, k)) {
      try {
        const caller = await ECHO_CALLERS[transport.id](servers, content);
        const histogram = latencyHistogram();
        let calls = 0;
        let elapsedMs = 0;
        try {
          const warmEnd = performance.now() + settings.warmupMs;
          while (performance.now() < warmEnd) await caller.call();
          // --cpu-profile: the timed stretch alone, a unit per payload and transport.
          await profiled({ case: payload.id, transport: transport.id }, async () => {
            const started = performance.now();
            const end = started + settings.durationMs;
            let now = started;
            while (now < end) {
              const t0 = now;
              await caller.call();
              now = performance.now();
              recordMs(histogram, now - t0);
              calls++;
            }
            elapsedMs = now - started;
          }, () => calls);
        } finally {
          await caller.close();
        }
        const callsPerS = (1000 * calls) / elapsedMs;
        results.cells.push({
          transport: transport.id,
          payload: payload.id,
          bytes: payload.bytes,
          elapsedMs,
          calls,
          callsPerS,
          payloadBytesPerS: 2 * payload.bytes * callsPerS,
          latency: summarizeHistogram(histogram),
        });
        // Table order: payloads as planned, transports as planned (they ran rotated).
        const rank = (c: PingPongCell) => payloads.findIndex((p) => p.id === c.payload) * 100 + transports.findIndex((v) => v.id === c.transport);
        results.cells.sort((a, b) => rank(a) - rank(b));
        progress(`${payload.id} ${transport.id}: ${calls} calls, ${Math.round(callsPerS)}/s`, results);
      } catch (error) {
        results.failures.push({ transport: transport.id, payload: payload.id, failure: callFailure(error) });
        progress(`${payload.id} ${transport.id} FAILED: ${describeFailure(results.failures.at(-1)!.failure)}`, results);
      }
    }
  }
  return results;
}
