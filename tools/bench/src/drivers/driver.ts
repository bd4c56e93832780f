import type { Measurement, Transport } from '../model';

/** One case × transport as the client app runs it: cold call, warm-up, then timed calls. */
export interface CaseCall {
  transport: Transport;
  rows: number;
  requests: number;
  warmup: number;
  runs: number;
}

/**
 * How the runner reaches whatever executes calls. The real one talks to the client app over HTTP;
 * the fake one returns scripted latencies, so the runner, statistics and exporters are tested
 * without a network.
 */
export interface ClientDriver {
  /** Resolves with raw samples, or rejects with an Error whose message says why the case failed. */
  runCase(call: CaseCall, signal?: AbortSignal): Promise<Measurement>;
  /** The measuring process's runtime (Node, CPU, package versions), for provenance. */
  describe(): Promise<Record<string, unknown>>;
}
