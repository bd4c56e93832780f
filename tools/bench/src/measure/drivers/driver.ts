import type { CaseRequest } from '@bench/harness';
import type { Measurement } from '../../model';

/**
 * One request to the client app (POST /bench/run's body, CaseRequest in libs/harness): optional cold
 * call, then warm-up calls, then timed calls, each within `deadlineMs` (deadlines.ts).
 */
export type CaseCall = CaseRequest;

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
