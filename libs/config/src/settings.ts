import { parseIntField } from '@bench/validation';
import { ConfigError } from './config-error';
import { CONNECTION_LIMITS } from './connection-limits';
import { DEFAULT_MICROSERVICES, loadMicroservices, type MicroserviceSettings } from './microservices';
import { loadSecurity, PLAIN, SECURITY_ENV, type SecuritySettings } from './security';
import { grpcCodecFor, NEST_VARIANTS, parseNestVariant, TUNINGS, type NestVariant } from './tunings';

export { ConfigError };

/** Every setting the apps read from the environment, with its default: the one place defaults live. */
export interface Settings {
  /** Bind address of every server (`HOST`). */
  host: string;
  clientPort: number;
  serverAPort: number;
  serverBPort: number;
  /** server-a's second listener: the same Nest controllers over HTTP/2 cleartext (h2c, prior knowledge). */
  serverAH2Port: number;
  /** Where the client finds server-a (JSON over HTTP). */
  serverAUrl: string;
  /** Where the client finds server-a's HTTP/2 cleartext listener (transport json-h2). */
  serverAH2Url: string;
  /** Where the client finds server-b (gRPC), as `host:port`. */
  serverBUrl: string;
  /** Largest `count` a server builds, and the client asks for, in one request. */
  maxRows: number;
  /** Largest number of parallel requests one client call fires. */
  maxParallel: number;
  /** Which configuration the Nest apps run: the blog's, or the tuned one (README, "Variants"). */
  variant: NestVariant;
  /** Deadline of every server-to-server call the client makes (HTTP timeout, gRPC deadline). */
  callTimeoutMs: number;
  /** How long every listener waits for an HTTP/1.1 request head or the HTTP/2 preface (CONNECTION_LIMITS.handshake). */
  handshakeTimeoutMs: number;
  /** Servers close each connection this long after it opened, so clients reconnect and a Service re-balances (gRPC: GOAWAY; HTTP/1.1: `Connection: close`); 0: never. */
  maxConnectionAgeMs: number;
  /**
   * server-b permits client keep-alive pings this often, also without calls (grpc-js server options
   * grpc.http2.min_ping_interval_without_data_ms and grpc.keepalive_permit_without_calls 1); 0: grpc-js's defaults.
   */
  grpcMinPingIntervalMs: number;
  /** TLS between the services (BENCH_SECURITY and the BENCH_TLS_* files: security.ts). */
  security: SecuritySettings;
  /** Nest's microservice transports (nest-tcp, nest-redis, …): what server-b connects, and where the client reaches each (microservices.ts). */
  microservices: MicroserviceSettings;
}


export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  host: '127.0.0.1',
  clientPort: 3000,
  serverAPort: 3001,
  serverBPort: 3002,
  serverAH2Port: 3003,
  serverAUrl: 'http://127.0.0.1:3001',
  serverAH2Url: 'http://127.0.0.1:3003',
  serverBUrl: '127.0.0.1:3002',
  maxRows: 1_000_000,
  maxParallel: 10_000,
  variant: 'blog',
  callTimeoutMs: 120_000,
  handshakeTimeoutMs: CONNECTION_LIMITS.handshake.ms,
  maxConnectionAgeMs: 0,
  grpcMinPingIntervalMs: 0,
  security: PLAIN,
  microservices: DEFAULT_MICROSERVICES,
});

/** Environment variable for each setting, as documented in the README. */
export const SETTING_ENV: Readonly<Record<keyof Settings, string>> = Object.freeze({
  host: 'HOST',
  clientPort: 'CLIENT_PORT',
  serverAPort: 'SERVER_A_PORT',
  serverBPort: 'SERVER_B_PORT',
  serverAH2Port: 'SERVER_A_H2_PORT',
  serverAUrl: 'SERVER_A_URL',
  serverAH2Url: 'SERVER_A_H2_URL',
  serverBUrl: 'SERVER_B_URL',
  maxRows: 'MAX_ROWS',
  maxParallel: 'MAX_PARALLEL',
  variant: 'VARIANT',
  callTimeoutMs: 'CALL_TIMEOUT_MS',
  handshakeTimeoutMs: 'HANDSHAKE_TIMEOUT_MS',
  maxConnectionAgeMs: 'MAX_CONNECTION_AGE_MS',
  grpcMinPingIntervalMs: 'GRPC_MIN_PING_INTERVAL_MS',
  security: SECURITY_ENV.mode,
  microservices: 'SERVER_B_MICROSERVICES',
});

const PORT = { min: 1, max: 65_535 };
const COUNT = { min: 1, max: 100_000_000 };

/**
 * Reads and validates the settings once, at start-up. A bad value stops the app with a message
 * naming the variable, instead of surfacing later as a confusing failure in the middle of a run.
 */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const read = (key: keyof Settings): string | undefined => {
    const value = env[SETTING_ENV[key]];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const int = (key: keyof Settings, range: { min: number; max: number }): number => {
    const raw = read(key);
    if (raw === undefined) return DEFAULT_SETTINGS[key] as number;
    const result = parseIntField(SETTING_ENV[key], raw, range);
    if (!result.ok) throw new ConfigError(result.error.message);
    return result.value;
  };
  const security = loadSecurity(env);
  // The scheme follows BENCH_SECURITY: a default URL takes it, a URL that says otherwise is an error.
  const scheme = security.mode === 'plain' ? 'http' : 'https';
  const url = (key: 'serverAUrl' | 'serverAH2Url'): string => {
    const value = read(key) ?? DEFAULT_SETTINGS[key].replace(/^http:/, `${scheme}:`);
    if (!/^https?:\/\/[^/\s]+$/.test(value.replace(/\/$/, ''))) {
      throw new ConfigError(`${SETTING_ENV[key]} must look like ${scheme}://host:port, got ${JSON.stringify(value)}`);
    }
    if (!value.startsWith(`${scheme}://`)) throw new ConfigError(`${SETTING_ENV[key]} is ${JSON.stringify(value)} but ${SECURITY_ENV.mode}=${security.mode} needs ${scheme}://`);
    return value.replace(/\/$/, '');
  };
  const serverBUrl = read('serverBUrl') ?? DEFAULT_SETTINGS.serverBUrl;
  if (!/^[^/\s:]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(serverBUrl)) {
    throw new ConfigError(`SERVER_B_URL must look like host:port (no scheme), got ${JSON.stringify(serverBUrl)}`);
  }
  const variantText = read('variant') ?? DEFAULT_SETTINGS.variant;
  const variant = parseNestVariant(variantText);
  if (variant === null) {
    throw new ConfigError(
      `VARIANT must be one of ${NEST_VARIANTS.join(', ')}, or tuned-without-<tuning> / blog-with-<tuning> for a tuning of ` +
        `${TUNINGS.map((t) => t.id).join(', ')}; got ${JSON.stringify(variantText)}`,
    );
  }
  // TUNED_CODEC is read where a codec is picked (grpcCodecFor), some of it per request: check it here, at start-up.
  grpcCodecFor(variant, env);
  return {
    host: read('host') ?? DEFAULT_SETTINGS.host,
    clientPort: int('clientPort', PORT),
    serverAPort: int('serverAPort', PORT),
    serverBPort: int('serverBPort', PORT),
    serverAH2Port: int('serverAH2Port', PORT),
    serverAUrl: url('serverAUrl'),
    serverAH2Url: url('serverAH2Url'),
    serverBUrl,
    maxRows: int('maxRows', COUNT),
    maxParallel: int('maxParallel', COUNT),
    variant,
    callTimeoutMs: int('callTimeoutMs', { min: 1, max: 3_600_000 }),
    handshakeTimeoutMs: int('handshakeTimeoutMs', { min: 100, max: 600_000 }),
    maxConnectionAgeMs: read('maxConnectionAgeMs') === '0' ? 0 : int('maxConnectionAgeMs', { min: 100, max: 86_400_000 }),
    grpcMinPingIntervalMs: read('grpcMinPingIntervalMs') === '0' ? 0 : int('grpcMinPingIntervalMs', { min: 100, max: 86_400_000 }),
    security,
    microservices: loadMicroservices(
      (variable) => env[variable]?.trim() || undefined,
      (variable, fallback) => {
        const raw = env[variable]?.trim();
        if (!raw) return fallback;
        const result = parseIntField(variable, raw, PORT);
        if (!result.ok) throw new ConfigError(result.error.message);
        return result.value;
      },
    ),
  };
}
