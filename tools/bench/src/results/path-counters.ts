// What a path profile's parts counted over some calls (issue #34): the DNS server's queries and the
// sidecars' requests, upstream connections and CPU. The network room reads them from the live parts
// (network/path.ts); runs and suites keep them per cell, as differences of running totals.
import type { CaseIdentity } from './model';
import { placeLabeller } from './results';

/** What the DNS server answered, counted from its log (one line per query it received). */
export interface DnsCounts {
  /** Every query it received (A, AAAA, TXT, …). */
  queries: number;
  /** getaddrinfo calls: A queries for the first search domain, where every lookup of a short name starts. */
  lookups: number;
  /** Queries answered NXDOMAIN (the search domains tried in vain). */
  nxdomain: number;
  byType: Record<string, number>;
}

/** One Envoy's counters: requests it handled, connections it opened upstream, its CPU so far. */
export interface EnvoyCounters {
  requests: number;
  upstreamConnections: number;
  cpuMs: number;
}

/** What a path adds to a cell: the DNS server's counts and the Envoys' counters (null: the path has no such part). */
export interface PathCounters {
  dns: DnsCounts | null;
  envoy: { client: EnvoyCounters; server: EnvoyCounters } | null;
}

const roundUs = (ms: number) => Math.round(ms * 1000) / 1000;

export function emptyDnsCounts(): DnsCounts {
  return { queries: 0, lookups: 0, nxdomain: 0, byType: {} };
}

export function dnsCountsBetween(before: DnsCounts, after: DnsCounts): DnsCounts {
  const byType = Object.fromEntries(Object.entries(after.byType).map(([type, n]) => [type, n - (before.byType[type] ?? 0)]).filter(([, n]) => n !== 0));
  return { queries: after.queries - before.queries, lookups: after.lookups - before.lookups, nxdomain: after.nxdomain - before.nxdomain, byType };
}

/** Counters over one measured part (e.g. a cell): after − before. */
export function pathCountersBetween(before: PathCounters, after: PathCounters): PathCounters {
  const envoyBetween = (b: EnvoyCounters, a: EnvoyCounters): EnvoyCounters => ({
    requests: a.requests - b.requests,
    upstreamConnections: a.upstreamConnections - b.upstreamConnections,
    cpuMs: roundUs(a.cpuMs - b.cpuMs),
  });
  return {
    dns: before.dns && after.dns ? dnsCountsBetween(before.dns, after.dns) : null,
    envoy: before.envoy && after.envoy ? { client: envoyBetween(before.envoy.client, after.envoy.client), server: envoyBetween(before.envoy.server, after.envoy.server) } : null,
  };
}

/** a + b (null counts as nothing): a run's cells added up. */
export function addPathCounters(a: PathCounters, b: PathCounters): PathCounters {
  const addEnvoy = (x: EnvoyCounters, y: EnvoyCounters): EnvoyCounters => ({
    requests: x.requests + y.requests,
    upstreamConnections: x.upstreamConnections + y.upstreamConnections,
    cpuMs: roundUs(x.cpuMs + y.cpuMs),
  });
  const addDns = (x: DnsCounts, y: DnsCounts): DnsCounts => {
    const byType = { ...x.byType };
    for (const [type, n] of Object.entries(y.byType)) byType[type] = (byType[type] ?? 0) + n;
    return { queries: x.queries + y.queries, lookups: x.lookups + y.lookups, nxdomain: x.nxdomain + y.nxdomain, byType };
  };
  return {
    dns: a.dns && b.dns ? addDns(a.dns, b.dns) : (a.dns ?? b.dns),
    envoy: a.envoy && b.envoy ? { client: addEnvoy(a.envoy.client, b.envoy.client), server: addEnvoy(a.envoy.server, b.envoy.server) } : (a.envoy ?? b.envoy),
  };
}

/** No counts yet: the start of a cell's sum. */
export const NO_PATH_COUNTERS: PathCounters = Object.freeze({ dns: null, envoy: null });

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
export function pathCounterRows(results: readonly (Pick<CaseIdentity, 'network' | 'runtime' | 'security' | 'variant' | 'case' | 'transport'> & { ok: boolean; runs: number; pathCounters?: PathCounters | null })[]): PathCounterRow[] {
  const placeOf = placeLabeller(results);
  return results.flatMap((r) => {
    const counted = r.pathCounters;
    if (!r.ok || !counted || r.runs === 0) return [];
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
