// bench:service's recovery tunings as records (issue #45 item 3): their shape (bench:all's Tuning words
// plus the strategies), where each applies, the option's parsing, what each sets on the caller, server-b
// and Envoy's config, and the help made from them.
import { RECOVERY_NAMES, RECOVERY_TUNINGS, callerRecovery, parseRecoveries, recoveriesFor, recoveryOptionHelp, recoveryRecords, recoveryTunings, replicaRecoveryEnv } from '../../../src/network/service/recovery';
import { BALANCING_STRATEGIES } from '../../../src/network/service/balancing';
import { frontProxyConfig, type ProxyRoute } from '../../../src/network/service/front-proxy';
import { grpcChannelOptions } from '../../../src/suites/service/clients';
import { recoveriesCannotRun } from '../../../src/suites/service/main';

describe('recovery tunings as records', () => {
  it('have the tunings\' shape and words, each on strategies that exist, and make --recovery\'s help', () => {
    expect(RECOVERY_NAMES).toEqual(['none', 'all', 'grpc-keepalive', 'grpc-retry', 'http-pool-timeouts', 'envoy-outlier-detection', 'envoy-health-checks', 'envoy-retries']);
    for (const t of RECOVERY_TUNINGS) {
      expect(Object.keys(t).sort()).toEqual(['app', 'change', 'id', 'settings', 'strategies', 'transport', 'why']);
      expect(t.strategies.every((s) => BALANCING_STRATEGIES.some((b) => b.name === s))).toBe(true);
      expect(recoveryOptionHelp()).toContain(`${t.id} (${t.transport}; ${t.strategies.join(', ')}): ${t.change}`);
    }
    // results.json keeps Envoy's settings spelled out, not as functions
    const outlier = recoveryRecords().find((r) => (r as { id: string }).id === 'envoy-outlier-detection') as { settings: { envoyCluster: Record<string, unknown> } };
    expect(JSON.parse(JSON.stringify(outlier)).settings.envoyCluster['server-b (gRPC)']).toEqual({ outlier_detection: expect.objectContaining({ consecutive_5xx: 3 }) });
  });

  it('run only on the transport × strategy they change; all where two or more apply; none always, first', () => {
    expect(parseRecoveries(undefined)).toEqual(['none']);
    expect(parseRecoveries(['all', 'grpc-retry', 'all'])).toEqual(['none', 'all', 'grpc-retry']);
    expect(() => parseRecoveries(['grpc-magic'])).toThrow(/unknown grpc-magic/);
    const asked = parseRecoveries(['all', ...RECOVERY_TUNINGS.map((t) => t.id)]);
    expect(recoveriesFor(asked, 'l4', 'grpc').run).toEqual(['none', 'all', 'grpc-keepalive', 'grpc-retry']);
    expect(recoveriesFor(asked, 'l4', 'http-json').run).toEqual(['none', 'http-pool-timeouts']);
    expect(recoveriesFor(asked, 'l4', 'http-json').skipped).toContainEqual({ recovery: 'all', why: 'only http-pool-timeouts applies: the same cell' });
    expect(recoveriesFor(asked, 'l7-proxy', 'http-json').run).toEqual(['none', 'all', 'envoy-outlier-detection', 'envoy-health-checks', 'envoy-retries']);
    expect(recoveriesFor(asked, 'max-connection-age', 'grpc').run).toEqual(['none']);
    expect(recoveryTunings('all', 'l4', 'grpc').map((t) => t.id)).toEqual(['grpc-keepalive', 'grpc-retry']);
    expect(recoveriesCannotRun(['envoy-retries'], ['grpc'], ['l4'])).toMatch(/--recovery envoy-retries: changes none/);
    expect(recoveriesCannotRun(['envoy-retries', 'grpc-retry'], ['grpc'], ['l4', 'l7-proxy'])).toBeNull();
  });

  it("set grpc-js's keep-alive and retry policy on the caller's channel, and server-b's ping permission", () => {
    const strategy = { grpcPolicy: 'round_robin' as const, httpConnections: 'round-robin' as const };
    const plain = grpcChannelOptions({ strategy });
    expect(plain['grpc.keepalive_time_ms']).toBeUndefined();
    expect(JSON.parse(plain['grpc.service_config'] as string)).toEqual({ loadBalancingConfig: [{ round_robin: {} }] });
    const tuned = grpcChannelOptions({ strategy, recovery: ['grpc-keepalive', 'grpc-retry'] });
    expect(tuned).toMatchObject({ 'grpc.keepalive_time_ms': 1000, 'grpc.keepalive_timeout_ms': 1000, 'grpc.keepalive_permit_without_calls': 1 });
    const config = JSON.parse(tuned['grpc.service_config'] as string);
    expect(config.loadBalancingConfig).toEqual([{ round_robin: {} }]);
    expect(config.methodConfig[0].retryPolicy).toMatchObject({ maxAttempts: 3, retryableStatusCodes: ['UNAVAILABLE'] });
    expect(replicaRecoveryEnv(recoveryTunings('grpc-keepalive', 'l4', 'grpc'))).toEqual({ GRPC_MIN_PING_INTERVAL_MS: '1000' });
    expect(replicaRecoveryEnv(recoveryTunings('grpc-retry', 'l4', 'grpc'))).toEqual({});
    expect(callerRecovery(recoveryTunings('http-pool-timeouts', 'dns-round-robin', 'http-json')).httpPool).toEqual({ connectTimeoutMs: 1000, headersTimeoutMs: 1000 });
  });

  it("put outlier detection and health checks in Envoy's clusters and retries in its routes", () => {
    const routes: ProxyRoute[] = [
      { name: 'server-a', listenPort: 18080, replicaPort: 8080, protocol: 'http1' },
      { name: 'server-b', listenPort: 19090, replicaPort: 9090, protocol: 'http2' },
    ];
    type Config = { static_resources: { clusters: Record<string, unknown>[]; listeners: { filter_chains: { filters: { typed_config: { route_config: { virtual_hosts: { routes: { route: Record<string, unknown> }[] }[] } } }[] }[] }[] } };
    const config = (recovery: Parameters<typeof recoveryTunings>[0], transport: 'grpc' | 'http-json') => frontProxyConfig(routes, '198.18.2.2', '/tmp/a.sock', (r) => `/tmp/eds-${r.name}.json`, null, recoveryTunings(recovery, 'l7-proxy', transport)) as Config;
    const routeOf = (c: Config, i: number) => c.static_resources.listeners[i].filter_chains[0].filters[0].typed_config.route_config.virtual_hosts[0].routes[0].route;
    const defaults = config('none', 'grpc');
    expect(defaults.static_resources.clusters[1].outlier_detection).toBeUndefined();
    expect(routeOf(defaults, 1).retry_policy).toBeUndefined();
    const all = config('all', 'grpc');
    const [a, b] = all.static_resources.clusters;
    expect(b.outlier_detection).toMatchObject({ consecutive_5xx: 3, base_ejection_time: '10s' });
    expect(b.health_checks).toEqual([expect.objectContaining({ grpc_health_check: {}, unhealthy_threshold: 2 })]);
    expect(a.health_checks).toEqual([expect.objectContaining({ http_health_check: { path: '/health' } })]);
    // Without it Envoy schedules the check after its first (made at start, before any call) 60 s later.
    for (const check of [a, b].flatMap((c) => c.health_checks as Record<string, unknown>[])) expect(check.no_traffic_interval).toBe(check.interval);
    expect(routeOf(all, 1).retry_policy).toMatchObject({ retry_on: 'connect-failure,reset,unavailable', per_try_timeout: '1s', num_retries: 2 });
    expect(routeOf(all, 0).retry_policy).toMatchObject({ retry_on: 'connect-failure,reset,5xx' });
    expect(routeOf(config('envoy-retries', 'grpc'), 1).timeout).toBe('0s');
    expect(config('envoy-retries', 'grpc').static_resources.clusters[1].outlier_detection).toBeUndefined();
  });
});
