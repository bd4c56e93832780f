// bench:service's records: the ports every replica listens on, the rate sweep, and when a step counts
// as saturated. Balancing strategies are records of network/service/ (balancing.ts).

/** The same ports in every replica (each has its own namespace and address), and on the virtual IP (nest-tcp: server-b's Nest TCP listener). */
export const SERVICE_PORTS = Object.freeze({ http: 8080, h2: 8081, grpc: 9090, tcp: 3004 });

/** Rows per call: the small-call regime where balancing, not payload, decides. */
export const SERVICE_ROWS = 1;
/** Keep-alive connections of the HTTP/1.1 client (what spreads under per-connection balancing). */
export const HTTP_CONNECTIONS = 8;

/** The offered rates, calls per second, lowest first; the sweep stops after the first saturated step. */
export const RATE_SWEEP: Readonly<Record<'default' | 'quick', readonly number[]>> = Object.freeze({
  default: [100, 200, 400, 700, 1000, 1400, 2000, 2800, 4000],
  quick: [50, 100],
});

/**
 * A step is saturated when the replicas (or the driver) no longer keep up: fewer than 90 % of the
 * offered calls completed per second, more than 1 % errors, or a corrected p99 above one second.
 */
export const SATURATION = Object.freeze({ minThroughputShare: 0.9, maxErrorShare: 0.01, maxP99Ms: 1000 });

/** Calls in flight at most per driver; a due call waits for a slot (and that wait is in its latency). */
export const MAX_IN_FLIGHT = 2000;

/** Where the l7-proxy strategy's Envoy listens, on the server namespace's address (server-a's routes over HTTP/1.1, server-b's over HTTP/2). */
export const PROXY_PORTS = Object.freeze({ http: 18080, grpc: 19090 });
