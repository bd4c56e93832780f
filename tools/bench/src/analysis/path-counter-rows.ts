// A cell's path counters as the reports show them: per-call rows and the listen queue in words. Read from
// the counters (path-counters.ts, the model's record) and the cells; written by no run.
import type { CellKey, PathCounters, TcpCounters } from '../model';
import { describeListenQueue, placeLabeller } from '../model';

/** A cell's path counters per timed call, as the reports show them (null: the path has no such part). */
export interface PathCounterRow {
  network: string;
  variant: string;
  case: string;
  transport: string;
  /** Timed calls the counts are over (the cell's repetitions). */
  calls: number;
  dnsQueriesPerCall: number | null;
  lookupsPerCall: number | null;
  /** Requests the caller's sidecar passed on, per call: a call's k requests, and the client's two reads of the servers' CPU around it. */
  sidecarRequestsPerCall: number | null;
  /** Connections the caller's sidecar opened to the servers' over the timed calls (0: its pool was warm). */
  upstreamConnections: number | null;
  /** Both sidecars' CPU per call, µs. */
  sidecarCpuUsPerCall: number | null;
}

/** One row per succeeded cell that crossed a path profile's parts (cells[].pathCounters), in the results' order. */
export function pathCounterRows(results: readonly (Pick<CellKey, 'network' | 'runtime' | 'security' | 'variant' | 'case' | 'transport'> & { ok: boolean; runs: number; pathCounters?: PathCounters | null })[]): PathCounterRow[] {
  const placeOf = placeLabeller(results);
  return results.flatMap((r) => {
    const counted = r.pathCounters;
    // A stage without names or sidecars counts only its TCP (listenQueueRows).
    if (!r.ok || !counted || r.runs === 0 || (!counted.dns && !counted.envoy)) return [];
    const per = (n: number) => n / r.runs;
    const envoy = counted.envoy;
    return [
      {
        network: placeOf(r),
        variant: r.variant,
        case: r.case,
        transport: r.transport,
        calls: r.runs,
        dnsQueriesPerCall: counted.dns ? per(counted.dns.queries) : null,
        lookupsPerCall: counted.dns ? per(counted.dns.lookups) : null,
        sidecarRequestsPerCall: envoy ? per(envoy.client.requests) : null,
        upstreamConnections: envoy ? envoy.client.upstreamConnections : null,
        sidecarCpuUsPerCall: envoy ? (per(envoy.client.cpuMs + envoy.server.cpuMs) * 1000) : null,
      },
    ];
  });
}

/** A failed cell's error as the reports print it: its message, then what the servers' listen queue did up to the failure (across a stage). */
export function failedCellText(cell: { error: string | null; pathCounters?: PathCounters | null }): string {
  const queue = describeListenQueue(cell.pathCounters?.tcp);
  return `${cell.error ?? 'unknown error'}${queue ? ` — ${queue}` : ''}`;
}

/** A cell whose server namespace's listen queue overflowed or failed SYN-cookie checks, as the reports show it. */
export interface ListenQueueRow {
  network: string;
  variant: string;
  case: string;
  transport: string;
  /** A failed cell's visit that failed counts every call up to the failure (cold call and warm-up too); otherwise the timed calls. */
  ok: boolean;
  calls: number;
  tcp: TcpCounters;
}

/** One row per cell (ok or failed) whose listen queue overflowed or failed a SYN-cookie check, in the results' order. */
export function listenQueueRows(results: readonly (Pick<CellKey, 'network' | 'runtime' | 'security' | 'variant' | 'case' | 'transport'> & { ok: boolean; runs: number; pathCounters?: PathCounters | null })[]): ListenQueueRow[] {
  const placeOf = placeLabeller(results);
  return results.flatMap((r) => {
    const tcp = r.pathCounters?.tcp;
    if (!tcp || describeListenQueue(tcp) === null) return [];
    return [{ network: placeOf(r), variant: r.variant, case: r.case, transport: r.transport, ok: r.ok, calls: r.runs, tcp }];
  });
}
