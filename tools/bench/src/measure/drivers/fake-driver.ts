import type { Measurement } from '../../model';
import type { CaseCall, ClientDriver } from './driver';

/** A scripted answer for one transport: latencies to hand out, or an error to throw. */
export interface FakeScript {
  latenciesMs?: number[];
  coldMs?: number;
  bytesPerResponse?: number;
  error?: string;
  /** Fail from this timed repetition on (1-based), e.g. to simulate a server dying mid-case. */
  failFromRepetition?: number;
  /** Answer only after this long (unless the signal ends the wait first): a server that hangs. */
  stallMs?: number;
}

/**
 * A driver with scripted latencies and no network, for testing the runner, statistics and exporters
 * deterministically. Latencies are handed out in order and cycle when exhausted.
 */
export class FakeDriver implements ClientDriver {
  readonly calls: CaseCall[] = [];
  private readonly cursor = new Map<string, number>();
  private readonly repetitions = new Map<string, number>();

  constructor(private readonly script: (call: CaseCall) => FakeScript) {}

  async runCase(call: CaseCall, signal?: AbortSignal): Promise<Measurement> {
    this.calls.push(call);
    const script = this.script(call);
    if (script.stallMs !== undefined) await stall(script.stallMs, signal);
    if (script.error && script.failFromRepetition === undefined) throw new Error(script.error);
    if (call.runs > 0) {
      const repetition = (this.repetitions.get(call.transport) ?? 0) + 1;
      this.repetitions.set(call.transport, repetition);
      if (script.failFromRepetition !== undefined && repetition >= script.failFromRepetition) {
        throw new Error(script.error ?? 'scripted failure');
      }
    }
    const latencies = script.latenciesMs ?? [1];
    const key = `${call.transport}:${call.rows}:${call.requests}`;
    const next = () => {
      const i = this.cursor.get(key) ?? 0;
      this.cursor.set(key, i + 1);
      return latencies[i % latencies.length];
    };
    const warmupMs = Array.from({ length: call.warmup }, next);
    const samplesMs = Array.from({ length: call.runs }, next);
    const timed = call.runs > 0;
    return {
      coldMs: call.cold ? (script.coldMs ?? null) : null,
      warmupMs,
      samplesMs,
      bytesPerResponse: timed ? (script.bytesPerResponse ?? null) : null,
      rowsPerCall: call.rows * call.requests,
      client: timed ? { cpuUserMs: call.runs, cpuSystemMs: 0, peakRssBytes: 1000 + call.rows } : null,
      server: timed ? { cpuUserMs: 2 * call.runs, cpuSystemMs: 0, peakRssBytes: 2000 + call.rows } : null,
      serverMetricsError: null,
      phases: null,
    };
  }

  async describe(): Promise<Record<string, unknown>> {
    return { fake: true };
  }
}

/** Waits `ms`, or rejects as an aborted request does once `signal` fires. */
function stall(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('The operation was aborted'))), { once: true });
  });
}
