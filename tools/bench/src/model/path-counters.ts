// What a path profile's parts counted over some calls (issue #34): the DNS server's queries and the
// sidecars' requests, upstream connections and CPU; and the kernel TCP counters of the namespace the
// servers listen in (its listen queue, SYN cookies, resets, retransmissions): a stage's server namespace,
// or on loopback the host's (issue #43). The network room reads them from the live parts
// (network/path/path.ts, network/stage/tcp-counters.ts); runs and suites keep them per cell, as differences of running totals.

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

/**
 * The server namespace's kernel TCP counters (both servers' listeners and connections): its accept queue
 * overflowing, the SYN cookies it then falls back to, and the resets it sends. Each field is one
 * counter of /proc/net/netstat (TcpExt) or /proc/net/snmp (Tcp), named in TCP_COUNTER_NAMES.
 */
export interface TcpCounters {
  /** A connection completed its handshake while the listener's accept queue was full (the ACK dropped). */
  listenOverflows: number;
  /** SYNs and handshake ACKs a listener dropped, overflows included. */
  listenDrops: number;
  syncookiesSent: number;
  /** Handshake ACKs carrying a valid SYN cookie. */
  syncookiesRecv: number;
  /** Segments to a listener that carried no valid cookie (e.g. a later segment whose first was dropped): each answered with a reset. */
  syncookiesFailed: number;
  /** Resets the namespace sent, whatever the reason. */
  outRsts: number;
  /** Established connections reset (either side's sockets in the namespace). */
  estabResets: number;
  /** Connections closed with unread data (reset). */
  abortOnData: number;
  /** Connections closed by the application with data still queued (reset). */
  abortOnClose: number;
  // The counters that explain time (issue #43): absent in documents from before them.
  /** SYNs (and SYN-ACKs) sent again: each one cost its connection the initial RTO, 1 s, or more. */
  synRetrans?: number;
  /** Retransmission timeouts that fired (TcpExt TCPTimeouts). */
  timeouts?: number;
  /** Segments retransmitted, for any reason (Tcp RetransSegs). */
  retransSegs?: number;
  /** TIME_WAIT sockets reused for a new outgoing connection (TcpExt TWRecycled). */
  twRecycled?: number;
  /** A reused port's SYN-ACK rejected by the timestamp check (TcpExt PAWSActive): a TIME_WAIT reuse that failed. */
  pawsActive?: number;
  /** Connections that could not enter TIME_WAIT, its table full (TcpExt TCPTimeWaitOverflow). */
  timeWaitOverflow?: number;
}

/** Where the kernel keeps each of TcpCounters' fields: [line prefix, column name] of /proc/net/netstat and /proc/net/snmp. */
export const TCP_COUNTER_NAMES: Readonly<Record<keyof TcpCounters, readonly ['TcpExt' | 'Tcp', string]>> = Object.freeze({
  listenOverflows: ['TcpExt', 'ListenOverflows'],
  listenDrops: ['TcpExt', 'ListenDrops'],
  syncookiesSent: ['TcpExt', 'SyncookiesSent'],
  syncookiesRecv: ['TcpExt', 'SyncookiesRecv'],
  syncookiesFailed: ['TcpExt', 'SyncookiesFailed'],
  outRsts: ['Tcp', 'OutRsts'],
  estabResets: ['Tcp', 'EstabResets'],
  abortOnData: ['TcpExt', 'TCPAbortOnData'],
  abortOnClose: ['TcpExt', 'TCPAbortOnClose'],
  synRetrans: ['TcpExt', 'TCPSynRetrans'],
  timeouts: ['TcpExt', 'TCPTimeouts'],
  retransSegs: ['Tcp', 'RetransSegs'],
  twRecycled: ['TcpExt', 'TWRecycled'],
  pawsActive: ['TcpExt', 'PAWSActive'],
  timeWaitOverflow: ['TcpExt', 'TCPTimeWaitOverflow'],
});

const TCP_FIELDS = Object.keys(TCP_COUNTER_NAMES) as (keyof TcpCounters)[];

/** Field by field: after − before, or a + b; a field one side lacks (a document from before it) is left out. */
function combineTcp(a: TcpCounters, b: TcpCounters, op: (x: number, y: number) => number): TcpCounters {
  return Object.fromEntries(TCP_FIELDS.flatMap((field) => (a[field] === undefined || b[field] === undefined ? [] : [[field, op(a[field], b[field])]]))) as unknown as TcpCounters;
}

/**
 * What a path adds to a cell: the DNS server's counts and the Envoys' counters (null: the path has no
 * such part); `tcp`, the kernel TCP counters where the servers listen: a stage's server namespace, or on loopback the host's (absent in the suites, with --client-url, and in runs before them).
 */
export interface PathCounters {
  dns: DnsCounts | null;
  envoy: { client: EnvoyCounters; server: EnvoyCounters } | null;
  tcp?: TcpCounters | null;
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
    ...tcpPart(before.tcp && after.tcp ? combineTcp(after.tcp, before.tcp, (x, y) => x - y) : null, before, after),
  };
}

/** The `tcp` field of a result made from a and b: absent when both lack it (older documents, the suites), else the value. */
function tcpPart(tcp: TcpCounters | null, a: PathCounters, b: PathCounters): { tcp?: TcpCounters | null } {
  return a.tcp === undefined && b.tcp === undefined ? {} : { tcp };
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
    ...tcpPart(a.tcp && b.tcp ? combineTcp(a.tcp, b.tcp, (x, y) => x + y) : (a.tcp ?? b.tcp ?? null), a, b),
  };
}

/** No counts yet: the start of a cell's sum. */
export const NO_PATH_COUNTERS: PathCounters = Object.freeze({ dns: null, envoy: null });
