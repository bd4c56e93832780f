// The client measures its own path to each server (GET /bench/path), from wherever it runs: on one
// machine, across the network stage, on two hosts or in a cluster. A results file that does not carry
// the round-trip time cannot be read; the bench records this before and after its timed calls.
import * as http from 'node:http';
import * as http2 from 'node:http2';
import * as net from 'node:net';

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

/** Bulk transfers per measurement: one alone swings by tens of percent on a busy machine. */
const BULK_TRANSFERS = 3;

export interface PathReport {
  measuredAt: string;
  serverA: { address: string; tcpConnectMs: Measured<Spread>; bulk: Measured<BulkSpread> };
  serverB: { address: string; tcpConnectMs: Measured<Spread>; http2PingMs: Measured<Spread> };
}

export interface PathOptions {
  serverAUrl: string;
  /** host:port */
  serverBAddress: string;
  samples: number;
  bulkBytes: number;
  timeoutMs: number;
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
async function http2Pings(address: string, samples: number, timeoutMs: number): Promise<Spread> {
  const session = http2.connect(`http://${address}`);
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

/** One bulk transfer from server-a on a fresh connection: bytes over the time from request to last byte. */
function bulkFrom(serverAUrl: string, bytes: number, timeoutMs: number): Promise<{ bytes: number; ms: number; mbit: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(`${serverAUrl}/path/bulk?bytes=${bytes}`, { agent: false, timeout: timeoutMs }, (res) => {
      let received = 0;
      res.on('data', (chunk: Buffer) => (received += chunk.length));
      res.on('error', reject);
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`GET /path/bulk: HTTP ${res.statusCode}`));
        const ms = performance.now() - started;
        resolve({ bytes: received, ms, mbit: (received * 8) / (ms * 1000) });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`bulk transfer from ${serverAUrl} took over ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

async function bulkTransfers(serverAUrl: string, bytes: number, timeoutMs: number): Promise<BulkSpread> {
  const mbits: number[] = [];
  for (let i = 0; i < BULK_TRANSFERS; i++) mbits.push((await bulkFrom(serverAUrl, bytes, timeoutMs)).mbit);
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
  const aPort = Number(a.port || 80);
  return {
    measuredAt: new Date().toISOString(),
    serverA: {
      address: `${a.hostname}:${aPort}`,
      tcpConnectMs: await attempt(() => tcpConnects(a.hostname, aPort, options.samples, options.timeoutMs)),
      bulk: await attempt(() => bulkTransfers(options.serverAUrl.replace(/\/$/, ''), options.bulkBytes, options.timeoutMs)),
    },
    serverB: {
      address: options.serverBAddress,
      tcpConnectMs: await attempt(() => tcpConnects(bHost, bPort, options.samples, options.timeoutMs)),
      http2PingMs: await attempt(() => http2Pings(options.serverBAddress, options.samples, options.timeoutMs)),
    },
  };
}
