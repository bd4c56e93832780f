import type { Measurement } from '../model';
import type { CaseCall, ClientDriver } from './driver';

/** A scripted answer for one transport: latencies to hand out, or an error to throw. */
export interface FakeScript {
  latenciesMs?: number[];
  coldMs?: number;
  bytesPerResponse?: number;
  error?: string;
}

/**
 * A driver with scripted latencies and no network, for testing the runner, statistics and exporters
 * deterministically. Latencies are handed out in order and cycle when exhausted.
 */
export class FakeDriver implements ClientDriver {
  readonly calls: CaseCall[] = [];
  private readonly cursor = new Map<string, number>();

  constructor(private readonly script: (call: CaseCall) => FakeScript) {}

  async runCase(call: CaseCall): Promise<Measurement> {
    this.calls.push(call);
    const script = this.script(call);
    if (script.error) throw new Error(script.error);
    const latencies = script.latenciesMs ?? [1];
    const key = `${call.transport}:${call.rows}:${call.requests}`;
    const next = () => {
      const i = this.cursor.get(key) ?? 0;
      this.cursor.set(key, i + 1);
      return latencies[i % latencies.length];
    };
    const warmupMs = Array.from({ length: call.warmup }, next);
    const samplesMs = Array.from({ length: call.runs }, next);
    return {
      coldMs: script.coldMs ?? null,
      warmupMs,
      samplesMs,
      bytesPerResponse: script.bytesPerResponse ?? null,
      rowsPerCall: call.rows * call.requests,
      client: null,
    };
  }

  async describe(): Promise<Record<string, unknown>> {
    return { fake: true };
  }
}
