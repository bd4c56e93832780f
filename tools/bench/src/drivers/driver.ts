import type { Measurement, Transport } from '../model';

/** One request to the client app: optional cold call, then warm-up calls, then timed calls. */
export interface CaseCall {
  transport: Transport;
  rows: number;
  requests: number;
  warmup: number;
  runs: number;
  /** Time one call on a brand-new connection first. */
  cold: boolean;
  /** A payload endpoint's name (libs/payloads); absent: the blog's rows. */
  payload?: string;
  /** Deadline of each call, in ms (deadlines.ts); the client fails a call past it. */
  deadlineMs: number;
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
