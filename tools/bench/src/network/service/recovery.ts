// bench:service's recovery tunings (issue #45 item 3), as data: what each sets on the callers, the
// replicas or the l7-proxy's Envoy so that a caller recovers sooner from a replica that died, froze or
// was lost, on which transport and strategy, and why. The same shape and words as bench:all's tunings
// (libs/config TUNINGS: id, app, transport, change, why) plus the strategies it applies to and the
// settings themselves; --recovery measures each alone (defaults with that one tuning on) and all on,
// as --ablate does with bench:all's (docs/behind-a-service.md, "Recovery tunings").
import type { Tuning } from '@bench/config';
import type { ServiceTransport, StrategyName } from './balancing';

export type RecoveryTuningId = 'grpc-keepalive' | 'grpc-retry' | 'http-pool-timeouts' | 'envoy-outlier-detection' | 'envoy-health-checks' | 'envoy-retries';

/** The HTTP/1.1 pool's own time limits (node:http): a connection not made, or a request without response headers, within them is destroyed and leaves the pool. */
export interface HttpPoolTimeouts {
  connectTimeoutMs: number;
  /** From the request's sending to its response's headers; below every call's deadline. */
  headersTimeoutMs: number;
}

/** What a recovery tuning sets: grpc-js channel options and service config on the caller, grpc-js options on server-b, the pool's timeouts, Envoy's cluster and route. */
export interface RecoverySettings {
  grpcChannel?: Record<string, number>;
  grpcServiceConfig?: Record<string, unknown>;
  /** server-b's grpc-js server options, through its settings' environment (libs/config). */
  serverEnv?: Record<string, string>;
  httpPool?: HttpPoolTimeouts;
  /** Merged into each of the front proxy's clusters (`server-a` HTTP/1.1 and `server-b` gRPC get their own where they differ). */
  envoyCluster?: (route: { protocol: 'http1' | 'http2' }) => Record<string, unknown>;
  /** Merged into each cluster's route (`route.retry_policy`). */
  envoyRoute?: (route: { protocol: 'http1' | 'http2' }) => Record<string, unknown>;
}

export interface RecoveryTuning extends Pick<Tuning, 'id' | 'change' | 'why'> {
  id: RecoveryTuningId;
  /** Who it is set on: the caller, server-b and the caller, or the front proxy. */
  app: 'client' | 'server-b + client' | 'front proxy';
  /** The transports it changes, comma-separated (as a Tuning's). */
  transport: string;
  /** The strategies whose path has what it sets (a tuning runs only on the transport × strategy it changes). */
  strategies: readonly StrategyName[];
  settings: RecoverySettings;
}

/** The gRPC keep-alive: a ping every 1 s, given up after 1 s without its ACK (grpc-js's defaults: none, 20 s). */
const KEEPALIVE = { timeMs: 1_000, timeoutMs: 1_000 };
/** The retry policy's backoff, service-config durations. */
const RETRY = { maxAttempts: 3, initialBackoff: '0.05s', maxBackoff: '0.5s', backoffMultiplier: 2 };
/** Envoy's per-try timeout and the pool's headers timeout: far above a steady call (tens of ms at region), far below the deadline. */
const GIVE_UP_MS = 1_000;

const previousHosts = { name: 'envoy.retry_host_predicates.previous_hosts', typed_config: { '@type': 'type.googleapis.com/envoy.extensions.retry.host.previous_hosts.v3.PreviousHostsPredicate' } };

export const RECOVERY_TUNINGS: readonly RecoveryTuning[] = Object.freeze([
  {
    id: 'grpc-keepalive',
    app: 'server-b + client',
    transport: 'grpc',
    strategies: ['l4', 'dns-round-robin'],
    change:
      `the channel sends an HTTP/2 PING every ${KEEPALIVE.timeMs} ms (grpc.keepalive_time_ms) and drops the connection when its ACK is not back within ` +
      `${KEEPALIVE.timeoutMs} ms (grpc.keepalive_timeout_ms), with or without calls (grpc.keepalive_permit_without_calls 1); server-b permits pings that often ` +
      `(grpc.http2.min_ping_interval_without_data_ms ${KEEPALIVE.timeMs}, grpc.keepalive_permit_without_calls 1; GRPC_MIN_PING_INTERVAL_MS)`,
    why:
      'a frozen replica or a lost node resets nothing: the channel\'s one HTTP/2 connection stays open and its calls wait for their deadline, and TCP gives ' +
      'up on it only after minutes of retransmissions. An unanswered PING is the channel\'s own way to see it and reconnect. A server enforcing ping ' +
      'limits (C-core, Go: 5 min without data by default) would answer pings this frequent with GOAWAY too_many_pings, hence its half; grpc-js 1.14\'s ' +
      'server enforces none',
    settings: {
      grpcChannel: { 'grpc.keepalive_time_ms': KEEPALIVE.timeMs, 'grpc.keepalive_timeout_ms': KEEPALIVE.timeoutMs, 'grpc.keepalive_permit_without_calls': 1 },
      serverEnv: { GRPC_MIN_PING_INTERVAL_MS: String(KEEPALIVE.timeMs) },
    },
  },
  {
    id: 'grpc-retry',
    app: 'client',
    transport: 'grpc',
    strategies: ['l4', 'dns-round-robin'],
    change:
      `a service-config retryPolicy for sample.SampleService: up to ${RETRY.maxAttempts} attempts on UNAVAILABLE, backoff ${RETRY.initialBackoff} ×${RETRY.backoffMultiplier} up to ` +
      `${RETRY.maxBackoff} (grpc-js retries by the service config; grpc.enable_retries is on by default)`,
    why:
      'a call that fails fast on a reset or refused connection (a killed replica) is tried again, by round_robin on the next subchannel, by pick_first ' +
      'on the reconnected one; it does nothing for a call that hangs (a retry starts only on a status)',
    settings: {
      grpcServiceConfig: {
        methodConfig: [{ name: [{ service: 'sample.SampleService' }], retryPolicy: { ...RETRY, retryableStatusCodes: ['UNAVAILABLE'] } }],
      },
    },
  },
  {
    id: 'http-pool-timeouts',
    app: 'client',
    transport: 'http-json',
    strategies: ['l4', 'dns-round-robin'],
    change: `the JSON caller's keep-alive pool gives up a connection not made within ${GIVE_UP_MS} ms (connect timeout) and a request without response headers within ${GIVE_UP_MS} ms (below the call's deadline): the socket is destroyed and leaves the pool`,
    why: "a frozen or lost replica's pooled connection takes calls and answers none; without a limit below the deadline each waits the whole deadline and the connection stays in the pool. Given up, the call fails at once and the pool opens a new connection, which the Service sends elsewhere",
    settings: { httpPool: { connectTimeoutMs: GIVE_UP_MS, headersTimeoutMs: GIVE_UP_MS } },
  },
  {
    id: 'envoy-outlier-detection',
    app: 'front proxy',
    transport: 'http-json, grpc',
    strategies: ['l7-proxy'],
    change: "each cluster's outlier_detection: a replica with 3 consecutive 5xx (a refused or reset connection counts as one) is ejected at once for 10 s (base_ejection_time), up to 50 % of the endpoints (max_ejection_percent), checked every 1 s",
    why: 'Envoy at its defaults keeps sending every third call to a dead endpoint until the control plane removes it (after a readiness probe: 30 s); passive ejection needs no probe and no extra traffic',
    settings: {
      envoyCluster: () => ({ outlier_detection: { consecutive_5xx: 3, interval: '1s', base_ejection_time: '10s', max_ejection_percent: 50 } }),
    },
  },
  {
    id: 'envoy-health-checks',
    app: 'front proxy',
    transport: 'http-json, grpc',
    strategies: ['l7-proxy'],
    change:
      "each cluster's active health check: every 500 ms, also while the cluster has no traffic (no_traffic_interval), 250 ms timeout, unhealthy after 2 failures, " +
      'healthy after 1 (server-a: GET /health; server-b: grpc.health.v1.Health/Check)',
    why:
      'the only tuning that sees a frozen or lost replica without a failed call: its health check times out, and Envoy stops routing to it within about 1 s. ' +
      'no_traffic_interval matters: Envoy picks the next check\'s interval when it schedules it, and a cluster without traffic at that moment (at start, ' +
      'before the first call) waits its default of 60 s, so `interval` alone made no check during a run (measured: 1 attempt in 4 s under traffic)',
    settings: {
      envoyCluster: (route) => ({
        health_checks: [{ timeout: '0.25s', interval: '0.5s', no_traffic_interval: '0.5s', unhealthy_threshold: 2, healthy_threshold: 1, ...(route.protocol === 'http2' ? { grpc_health_check: {} } : { http_health_check: { path: '/health' } }) }],
      }),
    },
  },
  {
    id: 'envoy-retries',
    app: 'front proxy',
    transport: 'http-json, grpc',
    strategies: ['l7-proxy'],
    change: `each route's retry_policy: up to 2 retries on another replica (previous_hosts) after a refused or reset connection, a 5xx or gRPC UNAVAILABLE, or no answer within the ${GIVE_UP_MS} ms per-try timeout`,
    why: "a call the dead or frozen replica got is sent to a live one instead of failing or waiting for its deadline; the per-try timeout is what turns a frozen replica's silence into a retry",
    settings: {
      envoyRoute: (route) => ({
        retry_policy: {
          retry_on: route.protocol === 'http2' ? 'connect-failure,reset,unavailable' : 'connect-failure,reset,5xx',
          num_retries: 2,
          per_try_timeout: `${GIVE_UP_MS / 1000}s`,
          retry_host_predicate: [previousHosts],
          host_selection_retry_max_attempts: 3,
        },
      }),
    },
  },
] satisfies RecoveryTuning[]);

/** A cell's recovery: `none` (every default), one tuning's id (defaults with it on), or `all` (every tuning that applies to the pair). */
export type Recovery = 'none' | 'all' | RecoveryTuningId;

export const RECOVERY_NAMES: readonly string[] = Object.freeze(['none', 'all', ...RECOVERY_TUNINGS.map((t) => t.id)]);

const transportsOf = (t: RecoveryTuning) => t.transport.split(',').map((s) => s.trim());

/** Whether `tuning` changes this strategy × transport. */
export function tuningApplies(tuning: RecoveryTuning, strategy: StrategyName, transport: ServiceTransport): boolean {
  return tuning.strategies.includes(strategy) && transportsOf(tuning).includes(transport);
}

/** The tunings a recovery turns on for this pair (none for `none`). */
export function recoveryTunings(recovery: Recovery, strategy: StrategyName, transport: ServiceTransport): RecoveryTuning[] {
  if (recovery === 'none') return [];
  return RECOVERY_TUNINGS.filter((t) => (recovery === 'all' || t.id === recovery) && tuningApplies(t, strategy, transport));
}

/**
 * The recoveries asked for (`--recovery`) that this pair runs, in the list's order, and why the others
 * do not: a tuning that does not change it, or `all` where at most one tuning applies (the same cell).
 */
export function recoveriesFor(asked: readonly Recovery[], strategy: StrategyName, transport: ServiceTransport): { run: Recovery[]; skipped: { recovery: Recovery; why: string }[] } {
  const run: Recovery[] = [];
  const skipped: { recovery: Recovery; why: string }[] = [];
  for (const recovery of asked) {
    const tunings = recoveryTunings(recovery, strategy, transport);
    if (recovery === 'none') run.push(recovery);
    else if (recovery === 'all' && tunings.length < 2) skipped.push({ recovery, why: tunings.length === 0 ? 'no recovery tuning applies' : `only ${tunings[0].id} applies: the same cell` });
    else if (tunings.length === 0) {
      const t = RECOVERY_TUNINGS.find((x) => x.id === recovery)!;
      skipped.push({ recovery, why: `${recovery} changes ${t.transport} under ${t.strategies.join(', ')} only` });
    } else run.push(recovery);
  }
  return { run, skipped };
}

/** The recoveries named on the command line, once each, `none` first (every other is compared with it); unknown names throw. */
export function parseRecoveries(names: readonly string[] | undefined): Recovery[] {
  const given = names ?? [];
  const unknown = given.filter((n) => !RECOVERY_NAMES.includes(n));
  if (unknown.length > 0) throw new Error(`--recovery: unknown ${unknown.join(', ')} (known: ${RECOVERY_NAMES.join(', ')})`);
  return [...new Set(['none', ...given])] as Recovery[];
}

/** What the tunings set, merged: the caller's grpc-js options and service config, the pool's timeouts, server-b's environment. */
export function callerRecovery(tunings: readonly RecoveryTuning[]): { grpcChannel: Record<string, number>; grpcServiceConfig: Record<string, unknown>; httpPool: HttpPoolTimeouts | null } {
  return {
    grpcChannel: Object.assign({}, ...tunings.map((t) => t.settings.grpcChannel ?? {})),
    grpcServiceConfig: Object.assign({}, ...tunings.map((t) => t.settings.grpcServiceConfig ?? {})),
    httpPool: tunings.find((t) => t.settings.httpPool)?.settings.httpPool ?? null,
  };
}

/** server-b's environment for the tunings (empty: its defaults). */
export function replicaRecoveryEnv(tunings: readonly RecoveryTuning[]): Record<string, string> {
  return Object.assign({}, ...tunings.map((t) => t.settings.serverEnv ?? {}));
}

/** The records as results.json keeps them (plan.recoveryTunings): Envoy's settings spelled out per cluster protocol rather than as functions. */
export function recoveryRecords(): object[] {
  const perProtocol = (make: ((route: { protocol: 'http1' | 'http2' }) => Record<string, unknown>) | undefined) => make && { 'server-a (HTTP/1.1)': make({ protocol: 'http1' }), 'server-b (gRPC)': make({ protocol: 'http2' }) };
  return RECOVERY_TUNINGS.map((t) => ({ ...t, settings: { ...t.settings, envoyCluster: perProtocol(t.settings.envoyCluster), envoyRoute: perProtocol(t.settings.envoyRoute) } }));
}

/** --recovery's help, made from the records. */
export function recoveryOptionHelp(): string {
  return (
    'recovery tunings, each measured alone under every --fault and in steady state (none: the defaults; all: every tuning that applies to the pair; ' +
    'each only on the transport × strategy it changes; network/service/recovery.ts): ' +
    RECOVERY_TUNINGS.map((t) => `${t.id} (${t.transport}; ${t.strategies.join(', ')}): ${t.change}`).join(' | ')
  );
}
