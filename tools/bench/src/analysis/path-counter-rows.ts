// A cell's path counters as the reports show them: per-call rows, the listen queue in words, and every
// cell's kernel TCP counters beside its modes and disturbed visits. Read from the counters (path-counters.ts,
// the model's record) and the cells; written by no run.
import type { Cell, CellKey, PathCounters, TcpCounters } from '../model';
import { describeListenQueue, networkOf, placeLabeller } from '../model';
import { disturbedVisitsOf } from './disturbance';
import { cellModes, type CellModes } from './modes';

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

/**
 * A cell's modes, kernel TCP counters and disturbed visits, as the reports show them (issue #43): one row
 * per cell, whatever moved; `tcp` null where none were recorded (--client-url, runs from before them).
 */
export interface TcpCounterRow {
  network: string;
  variant: string;
  case: string;
  transport: string;
  /** A failed cell's visit that failed counts every call up to the failure (cold call and warm-up too); otherwise the timed calls. */
  ok: boolean;
  calls: number;
  /** Where the counters were read: loopback's are the host's, every connection on it counted. */
  host: boolean;
  tcp: Partial<TcpCounters> | null;
  modes: CellModes | null;
  /** Visits recorded and those disturbed (null: none recorded, a run from before issue #43). */
  visits: { recorded: number; disturbed: number } | null;
}

/** One row per cell, in the results' order. */
export function tcpCounterRows(results: readonly Cell[]): TcpCounterRow[] {
  const placeOf = placeLabeller(results);
  return results.map((r) => {
    const recorded = (r.disturbance ?? []).filter((d) => d !== null).length;
    return {
      network: placeOf(r),
      variant: r.variant,
      case: r.case,
      transport: r.transport,
      ok: r.ok,
      calls: r.runs,
      host: networkOf(r) === 'loopback',
      tcp: r.pathCounters?.tcp ?? null,
      modes: cellModes(r),
      visits: r.disturbance === undefined ? null : { recorded, disturbed: disturbedVisitsOf(r).length },
    };
  });
}
