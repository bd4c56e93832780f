import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type { Caller } from '../contract';

export interface HttpCallSpec {
  url: string;
  method: 'GET' | 'POST';
  /** Request body and its media type (POST). */
  body?: Buffer;
  contentType?: string;
  /** One kept-alive connection for every call, or a new connection per call (Connection: close). */
  keepAlive: boolean;
  /** How the host name is looked up for each new connection (default: Node's dns.lookup). */
  lookup?: LookupFunction;
  /** An https:// url's TLS (the run's CA, the client's certificate under mtls: callerTls); absent or null: cleartext. */
  tls?: ConnectionOptions | null;
  /** Decodes and checks a 200 reply's body; throws on a wrong one. */
  check(body: Buffer): void;
  timeoutMs: number;
}

/**
 * HTTP/1.1 calls with node:http (node:https under TLS), one at a time. Keep-alive uses an agent with a
 * single socket, so all calls share one connection; without it every call opens (and times) a TCP
 * connection of its own (under TLS a full handshake each).
 */
export function httpCaller(spec: HttpCallSpec): Caller {
  const secure = spec.url.startsWith('https:');
  if (secure !== Boolean(spec.tls)) throw new Error(`${spec.url}: ${secure ? 'an https URL needs the TLS options (the CA)' : 'TLS options given for a cleartext URL'}`);
  const tls = spec.tls ? { ...spec.tls, ALPNProtocols: ['http/1.1'] } : {};
  const keep = { keepAlive: true, maxSockets: 1, maxFreeSockets: 1 };
  const agent = spec.keepAlive ? (spec.tls ? new https.Agent({ ...keep, ...tls }) : new http.Agent(keep)) : false;
  const request = secure ? https.request : http.request;
  const headers: Record<string, string | number> = {};
  if (spec.body) {
    headers['content-type'] = spec.contentType ?? 'application/octet-stream';
    headers['content-length'] = spec.body.length;
  }
  const call = () =>
    new Promise<number | undefined>((resolve, reject) => {
      const started = performance.now();
      let connectMs: number | undefined;
      // Without keep-alive (`agent: false`) each call's connection is new, and under TLS so is its session (nothing resumed).
      const req = request(spec.url, { ...(agent ? {} : tls), method: spec.method, agent, headers, timeout: spec.timeoutMs, ...(spec.lookup ? { lookup: spec.lookup } : {}) }, (res) => {
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

/** One suite message over HTTP/1.1: GET `url`, or POST it with `request` as the body. */
export interface MessageCall<Res> {
  url: string;
  request?: unknown;
  /** One kept-alive connection for every call, or a new connection per call. */
  keepAlive: boolean;
  /** How each new connection looks the host up (default: Node's dns.lookup). */
  lookup?: LookupFunction;
  /** An https:// url's TLS options (callerTls); absent or null: cleartext. */
  tls?: ConnectionOptions | null;
  /** Checks a decoded reply; throws on a wrong one. */
  check: (reply: Res) => void;
  timeoutMs: number;
}

/** How a message crosses as a body: its media type, the request's encoding, the reply's decoding. */
export interface BodyFormat<Res> {
  contentType: string;
  encode(request: unknown): Buffer;
  decode(body: Buffer): Res;
}

/** The same message call again and again on node:http, every reply decoded in `format` and checked. */
export function messageCaller<Res>(call: MessageCall<Res>, format: BodyFormat<Res>): Caller {
  return httpCaller({
    url: call.url,
    method: call.request === undefined ? 'GET' : 'POST',
    ...(call.request === undefined ? {} : { body: format.encode(call.request), contentType: format.contentType }),
    keepAlive: call.keepAlive,
    ...(call.lookup ? { lookup: call.lookup } : {}),
    tls: call.tls ?? null,
    check: (body) => call.check(format.decode(body)),
    timeoutMs: call.timeoutMs,
  });
}
