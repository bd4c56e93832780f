// The client measures its own path to each server (GET /bench/path), from wherever it runs: on one
// machine, across the network stage, on two hosts or in a cluster. A results file that does not carry
// the round-trip time cannot be read; the bench records this before and after its timed calls.
import * as http from 'node:http';
import * as https from 'node:https';
import * as http2 from 'node:http2';
import * as net from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { clientTlsOptions, GRPC_FLOW_CONTROL_WINDOW_BYTES, PLAIN, type SecuritySettings } from '@bench/config';
import { grpcChannelCredentials, PATH_PROTO, PROTO_DIR, PROTO_LOADER_OPTIONS, type BulkChunk__Output, type BulkRequest } from '@bench/proto';

export interface Spread {
  n: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
}

export type Measured<T> = T | { error: string };

/** Throughput of BULK_TRANSFERS transfers of `bytes` each, in Mbit/s. */
export interface BulkSpread {
  bytes: number;
  n: number;
  medianMbit: number;
  minMbit: number;
  maxMbit: number;
}

/**
 * server-b's bulk transfer runs on a gRPC channel whose HTTP/2 flow-control window is this large, so it
 * measures the path, not grpc-js's 64 KiB default (which caps a stream near window ÷ RTT: the
 * variants' own window is a setting under test, recorded with their tunings).
 */
export const PATH_BULK_HTTP2_WINDOW_BYTES = GRPC_FLOW_CONTROL_WINDOW_BYTES;

export interface GrpcBulkSpread extends BulkSpread {
  http2WindowBytes: number;
}

/** Bulk transfers per measurement: one alone swings by tens of percent on a busy machine. */
const BULK_TRANSFERS = 3;

export interface PathReport {
  measuredAt: string;
  serverA: { address: string; tcpConnectMs: Measured<Spread>; bulk: Measured<BulkSpread> };
  serverB: { address: string; tcpConnectMs: Measured<Spread>; http2PingMs: Measured<Spread>; bulk: Measured<GrpcBulkSpread> };
}

export interface PathOptions {
  serverAUrl: string;
  /** host:port */
  serverBAddress: string;
  samples: number;
  bulkBytes: number;
  timeoutMs: number;
  /** The client's security: the probes dial what the calls dial (a TLS handshake in each fresh connection's time). */
  security?: SecuritySettings;
}

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const medianMs = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { n: sorted.length, medianMs, minMs: sorted[0], maxMs: sorted[sorted.length - 1] };
}

async function attempt<T>(work: () => Promise<T>): Promise<Measured<T>> {
  try {
    return await work();
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** One TCP handshake (SYN → SYN-ACK as the client sees it), then closed. */
function connectOnce(host: string, port: number, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => {
      resolve(performance.now() - started);
      socket.destroy();
    });
    socket.once('timeout', () => socket.destroy(new Error(`no TCP connection to ${host}:${port} within ${timeoutMs} ms`)));
    socket.once('error', reject);
  });
}

async function tcpConnects(host: string, port: number, samples: number, timeoutMs: number): Promise<Spread> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push(await connectOnce(host, port, timeoutMs));
  return spread(times);
}

/** HTTP/2 PING round trips on a connection of its own to server-b (the gRPC server's HTTP/2 layer answers them). */
async function http2Pings(address: string, samples: number, timeoutMs: number, security: SecuritySettings): Promise<Spread> {
  const session = security.mode === 'plain' ? http2.connect(`http://${address}`) : http2.connect(`https://${address}`, clientTlsOptions(security));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no HTTP/2 connection to ${address} within ${timeoutMs} ms`)), timeoutMs);
      session.once('connect', () => (clearTimeout(timer), resolve()));
      session.once('error', (error) => (clearTimeout(timer), reject(error)));
    });
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      times.push(await new Promise<number>((resolve, reject) => session.ping((error, ms) => (error ? reject(error) : resolve(ms)))));
    }
    return spread(times);
  } finally {
    session.destroy();
  }
}

interface Transfer {
  bytes: number;
  ms: number;
  mbit: number;
}

function transfer(bytes: number, ms: number): Transfer {
  return { bytes, ms, mbit: (bytes * 8) / (ms * 1000) };
}

/** One bulk transfer from server-a on a fresh connection: bytes over the time from request to last byte. */
function bulkFromServerA(serverAUrl: string, bytes: number, timeoutMs: number, security: SecuritySettings): Promise<Transfer> {
  const get = security.mode === 'plain' ? http.get : https.get;
  const tls = security.mode === 'plain' ? {} : clientTlsOptions(security);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = get(`${serverAUrl}/path/bulk?bytes=${bytes}`, { agent: false, timeout: timeoutMs, ...tls }, (res) => {
      let received = 0;
      res.on('data', (chunk: Buffer) => (received += chunk.length));
      res.on('error', reject);
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`GET /path/bulk: HTTP ${res.statusCode}`));
        resolve(transfer(received, performance.now() - started));
      });
    });
    req.on('timeout', () => req.destroy(new Error(`bulk transfer from ${serverAUrl} took over ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

type PathProbeClient = grpc.Client & {
  Bulk(request: BulkRequest, options: grpc.CallOptions): grpc.ClientReadableStream<BulkChunk__Output>;
};
type PathProbeConstructor = new (address: string, credentials: grpc.ChannelCredentials, options: grpc.ChannelOptions) => PathProbeClient;

let pathProbeConstructor: PathProbeConstructor | undefined;

function pathProbe(): PathProbeConstructor {
  if (!pathProbeConstructor) {
    const definition = grpc.loadPackageDefinition(loadSync(PATH_PROTO, { ...PROTO_LOADER_OPTIONS, includeDirs: [PROTO_DIR] }));
    pathProbeConstructor = (definition['bench'] as unknown as { path: { PathProbe: PathProbeConstructor } }).path.PathProbe;
  }
  return pathProbeConstructor;
}

/**
 * One bulk transfer from server-b (PathProbe.Bulk) on a channel of its own, like server-a's on a fresh
 * connection: bytes over the time from the call (connection included) to the stream's end.
 */
function bulkFromServerB(address: string, bytes: number, timeoutMs: number, security: SecuritySettings): Promise<Transfer> {
  const window = PATH_BULK_HTTP2_WINDOW_BYTES;
  const client = new (pathProbe())(address, grpcChannelCredentials(security), { 'grpc-node.flow_control_window': window });
  return new Promise<Transfer>((resolve, reject) => {
    const started = performance.now();
    let received = 0;
    const call = client.Bulk({ bytes }, { deadline: Date.now() + timeoutMs });
    call.on('data', (chunk: BulkChunk__Output) => (received += chunk.data.length));
    call.on('error', (error: grpc.ServiceError) => reject(new Error(`PathProbe.Bulk: ${error.details || error.message}`)));
    call.on('end', () => resolve(transfer(received, performance.now() - started)));
  }).finally(() => client.close());
}

/**
 * BULK_TRANSFERS timed transfers after one untimed: the first of a process runs its code cold, which on
 * loopback (where throughput is CPU) read 30-45 % below the rest and flagged a path "changed" that had not.
 */
async function bulkTransfers(bytes: number, once: () => Promise<Transfer>): Promise<BulkSpread> {
  const mbits: number[] = [];
  for (let i = -1; i < BULK_TRANSFERS; i++) {
    const done = await once();
    if (done.bytes !== bytes) throw new Error(`bulk transfer ended after ${done.bytes} of ${bytes} bytes`);
    if (i >= 0) mbits.push(done.mbit);
  }
  const s = spread(mbits);
  return { bytes, n: s.n, medianMbit: s.medianMs, minMbit: s.minMs, maxMbit: s.maxMs };
}

function hostPort(address: string): [string, number] {
  const at = address.lastIndexOf(':');
  return [address.slice(0, at), Number(address.slice(at + 1))];
}

/** The path from this client to both servers; a part that fails says why instead of failing the rest. */
export async function measurePath(options: PathOptions): Promise<PathReport> {
  const a = new URL(options.serverAUrl);
  const [bHost, bPort] = hostPort(options.serverBAddress);
  const aPort = Number(a.port || (a.protocol === 'https:' ? 443 : 80));
  const security = options.security ?? PLAIN;
  return {
    measuredAt: new Date().toISOString(),
    serverA: {
      address: `${a.hostname}:${aPort}`,
      tcpConnectMs: await attempt(() => tcpConnects(a.hostname, aPort, options.samples, options.timeoutMs)),
      bulk: await attempt(() =>
        bulkTransfers(options.bulkBytes, () => bulkFromServerA(options.serverAUrl.replace(/\/$/, ''), options.bulkBytes, options.timeoutMs, security)),
      ),
    },
    serverB: {
      address: options.serverBAddress,
      tcpConnectMs: await attempt(() => tcpConnects(bHost, bPort, options.samples, options.timeoutMs)),
      http2PingMs: await attempt(() => http2Pings(options.serverBAddress, options.samples, options.timeoutMs, security)),
      bulk: await attempt(async () => ({
        ...(await bulkTransfers(options.bulkBytes, () => bulkFromServerB(options.serverBAddress, options.bulkBytes, options.timeoutMs, security))),
        http2WindowBytes: PATH_BULK_HTTP2_WINDOW_BYTES,
      })),
    },
  };
}
