import * as http from 'node:http';
import type { Caller } from './caller';

export interface HttpCallSpec {
  url: string;
  method: 'GET' | 'POST';
  /** Request body and its media type (POST). */
  body?: Buffer;
  contentType?: string;
  /** One kept-alive connection for every call, or a new connection per call (Connection: close). */
  keepAlive: boolean;
  /** How the host name is looked up for each new connection (default: Node's dns.lookup). */
  lookup?: import('node:net').LookupFunction;
  /** Decodes and checks a 200 reply's body; throws on a wrong one. */
  check(body: Buffer): void;
  timeoutMs: number;
}

/**
 * HTTP/1.1 calls with node:http, one at a time. Keep-alive uses an agent with a single socket, so all
 * calls share one connection; without it every call opens (and times) a TCP connection of its own.
 */
export function httpCaller(spec: HttpCallSpec): Caller {
  const agent = spec.keepAlive ? new http.Agent({ keepAlive: true, maxSockets: 1, maxFreeSockets: 1 }) : false;
  const headers: Record<string, string | number> = {};
  if (spec.body) {
    headers['content-type'] = spec.contentType ?? 'application/octet-stream';
    headers['content-length'] = spec.body.length;
  }
  const call = () =>
    new Promise<number | undefined>((resolve, reject) => {
      const started = performance.now();
      let connectMs: number | undefined;
      const req = http.request(spec.url, { method: spec.method, agent, headers, timeout: spec.timeoutMs, ...(spec.lookup ? { lookup: spec.lookup } : {}) }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}: ${body.toString('utf8').slice(0, 200)}`));
          try {
            spec.check(body);
            resolve(connectMs);
          } catch (error) {
            reject(error as Error);
          }
        });
      });
      req.on('socket', (socket) => {
        if (socket.connecting) socket.once('connect', () => (connectMs = performance.now() - started));
      });
      req.on('timeout', () => req.destroy(new Error(`no reply within ${spec.timeoutMs} ms`)));
      req.on('error', reject);
      req.end(spec.body);
    });
  return { call, close: async () => (agent ? agent.destroy() : undefined) };
}
