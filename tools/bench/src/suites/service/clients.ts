// The callers the driver offers load with, one per transport, configured by the balancing strategy:
// where they connect (the Service's virtual IP, the headless name, the proxy) and how they spread.
import * as grpc from '@grpc/grpc-js';
import * as dns from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { loadSettings, type ProcessSample, type SecuritySettings } from '@bench/config';
import { grpcChannelCredentials, MAX_MESSAGE_BYTES } from '@bench/proto';
import { callerTls, grpcServiceClient, microserviceCaller } from '@bench/transports';
import { callerRecovery, RECOVERY_TUNINGS, type BalancingStrategy, type HttpPoolTimeouts, type RecoveryTuningId, type ServiceTransport } from '../../network/service';

type Unary = (request: unknown, options: grpc.CallOptions, callback: (error: grpc.ServiceError | null, reply?: unknown) => void) => void;
type Client = grpc.Client & Record<string, Unary>;

export interface Caller {
  call(): Promise<void>;
  close(): void;
  /** A first call before any load, awaited: a Nest transport's ClientProxy connects on its first send (a Kafka client joins its group: seconds). */
  connect?(): Promise<void>;
}

export interface CallerOptions {
  transport: ServiceTransport;
  strategy: Pick<BalancingStrategy, 'grpcPolicy' | 'httpConnections'>;
  /** host (an address or the headless name) and port. */
  host: string;
  port: number;
  rows: number;
  httpConnections: number;
  deadlineMs: number;
  /** The recovery tunings on for this caller (network/service/recovery.ts); absent or empty: the defaults. */
  recovery?: readonly RecoveryTuningId[];
}

/** What the caller's recovery tunings set: grpc-js channel options and service config, the pool's timeouts. */
export function callerSettings(o: Pick<CallerOptions, 'recovery'>): ReturnType<typeof callerRecovery> {
  return callerRecovery(RECOVERY_TUNINGS.filter((t) => o.recovery?.includes(t.id)));
}

/** grpc-js's channel options for the caller: its strategy's policy, and its recovery tunings' (keep-alive, the retry policy). */
export function grpcChannelOptions(o: Pick<CallerOptions, 'strategy' | 'recovery'>): grpc.ChannelOptions {
  const tuned = callerSettings(o);
  return {
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    ...tuned.grpcChannel,
    'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ [o.strategy.grpcPolicy]: {} }], ...tuned.grpcServiceConfig }),
  };
}

/**
 * What a caller wraps its connections in (libs/config: the run's CA, the client's certificate under
 * mtls; plain: cleartext): TLS 1.3 to the replicas or the proxy, their certificate checked against
 * the name or address dialled.
 */
export function makeCaller(o: CallerOptions, security: SecuritySettings): Caller {
  if (o.transport === 'http-json') return httpCaller(o, security);
  return o.transport === 'grpc' ? grpcCaller(o, security) : nestCaller(o);
}

/**
 * Nest's microservice transports: the Nest client's own ClientProxy (libs/transports' microserviceCaller),
 * configured as the apps are, from the environment the bench gives the driver (the brokers' URLs, the
 * set's namespace; nest-tcp's NEST_TCP_URL is the host and port the strategy dials). One ClientProxy:
 * one TCP connection for nest-tcp, one broker connection for the others.
 */
function nestCaller(o: CallerOptions): Caller {
  const settings = loadSettings({ ...process.env, NEST_TCP_URL: `${o.host}:${o.port}` });
  const caller = microserviceCaller(o.transport as Parameters<typeof microserviceCaller>[0], settings, o.rows, o.deadlineMs);
  return { call: () => caller.call().then(() => undefined), close: () => void caller.close(), connect: () => caller.connect() };
}

/** GET over http://, or https:// with the security's TLS (HTTP/1.1 offered by ALPN). */
function getter(security: SecuritySettings): { get: typeof http.get; agent: (options: http.AgentOptions) => http.Agent; tls: object } {
  const tls = callerTls(security);
  if (!tls) return { get: http.get, agent: (options) => new http.Agent(options), tls: {} };
  const withTls = { ...tls, ALPNProtocols: ['http/1.1'] };
  return { get: https.get as typeof http.get, agent: (options) => new https.Agent({ ...options, ...withTls }), tls: withTls };
}

function grpcCaller(o: CallerOptions, security: SecuritySettings): Caller {
  // A name goes through grpc-js's DNS resolver (every address); an address is one subchannel.
  const target = /^[\d.]+$/.test(o.host) ? `${o.host}:${o.port}` : `dns:///${o.host}:${o.port}`;
  const client = new (grpcServiceClient<Client>('sample.SampleService'))(target, grpcChannelCredentials(security), grpcChannelOptions(o));
  return {
    call: () =>
      new Promise((resolve, reject) =>
        client.GetSamples({ count: o.rows }, { deadline: Date.now() + o.deadlineMs }, (error) => (error ? reject(new Error(`gRPC ${grpc.status[error.code]}: ${error.details}`)) : resolve())),
      ),
    close: () => client.close(),
  };
}

/** Each new connection to the next of the name's addresses (what a client-side balancer does per connection for HTTP/1.1). */
function roundRobinLookup(): LookupFunction {
  let next = 0;
  return ((hostname: string, options: dns.LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void) => {
    dns.lookup(hostname, { all: true, family: 4 }, (error, addresses) => {
      if (error || addresses.length === 0) return callback(error ?? new Error(`${hostname}: no address`), '', 4);
      const pick = addresses[next++ % addresses.length];
      if (options.all) callback(null, [pick]);
      else callback(null, pick.address, pick.family);
    });
  }) as LookupFunction;
}

/**
 * The pool's own limits (the http-pool-timeouts recovery tuning): a connection not made within its
 * connect timeout, or a request without response headers within its headers timeout, is destroyed with
 * its socket, so the pool drops that connection and opens another for the next call.
 */
function limitRequest(req: http.ClientRequest, pool: HttpPoolTimeouts): void {
  const headers = setTimeout(() => req.destroy(new Error(`no response headers within ${pool.headersTimeoutMs} ms`)), pool.headersTimeoutMs);
  req.once('response', () => clearTimeout(headers));
  req.once('close', () => clearTimeout(headers));
  req.once('socket', (socket) => {
    if (!socket.connecting) return;
    const connect = setTimeout(() => req.destroy(new Error(`connect timeout after ${pool.connectTimeoutMs} ms`)), pool.connectTimeoutMs);
    socket.once('connect', () => clearTimeout(connect));
    socket.once('secureConnect', () => clearTimeout(connect));
    req.once('close', () => clearTimeout(connect));
  });
}

function httpCaller(o: CallerOptions, security: SecuritySettings): Caller {
  const { get, agent: agentOf } = getter(security);
  const agent = agentOf({ keepAlive: true, maxSockets: o.httpConnections, maxFreeSockets: o.httpConnections, ...(o.strategy.httpConnections === 'round-robin' ? { lookup: roundRobinLookup() } : {}) });
  const path = `/server-a/${o.rows}`;
  const pool = callerSettings(o).httpPool;
  return {
    call: () =>
      new Promise((resolve, reject) => {
        const req = get({ host: o.host, port: o.port, path, agent, timeout: o.deadlineMs }, (res) => {
          res.resume();
          res.on('error', reject);
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
        });
        if (pool) limitRequest(req, pool);
        req.on('timeout', () => req.destroy(new Error(`timeout after ${o.deadlineMs} ms`)));
        req.on('error', reject);
      }),
    close: () => agent.destroy(),
  };
}

/** A replica's own counters: its server-a's /metrics or its server-b's ProcessMetrics (requests served, CPU). */
export class ReplicaCounters {
  private readonly metrics = new Map<string, Client>();

  constructor(
    private readonly transport: ServiceTransport,
    private readonly security: SecuritySettings,
  ) {}

  /** server-a's counters for HTTP; server-b's (over gRPC) for gRPC and the Nest transports it serves. */
  read(address: string, port: number, timeoutMs = 10_000): Promise<ProcessSample> {
    if (this.transport === 'http-json') {
      const { get, tls } = getter(this.security);
      return new Promise((resolve, reject) => {
        // A frozen or unreachable replica answers nothing: given up at the timeout, not waited for.
        const req = get({ host: address, port, path: '/metrics', agent: false, timeout: timeoutMs, ...tls }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ProcessSample) : reject(new Error(`metrics: HTTP ${res.statusCode}`))));
          });
        req.on('timeout', () => req.destroy(new Error(`metrics: no answer within ${timeoutMs} ms`)));
        req.on('error', reject);
      });
    }
    const key = `${address}:${port}`;
    let client = this.metrics.get(key);
    if (!client) {
      client = new (grpcServiceClient<Client>('bench.metrics.ProcessMetrics'))(key, grpcChannelCredentials(this.security));
      this.metrics.set(key, client);
    }
    const c = client;
    return new Promise((resolve, reject) =>
      c.Read({ resetPeak: false }, { deadline: Date.now() + timeoutMs }, (error, reply) => (error ? reject(new Error(`metrics: gRPC ${grpc.status[error.code]}: ${error.details}`)) : resolve(reply as ProcessSample))),
    );
  }

  close(): void {
    this.metrics.forEach((client) => client.close());
  }
}
