import * as http from 'node:http';
import * as https from 'node:https';
import { clientTlsOptions, type ProcessSample, type Settings } from '@bench/config';
import { deadlineHeader, isNdjson, NDJSON_FROM_ROWS, NDJSON_MEDIA_TYPE, readNdjson } from '@bench/samples';
import type { Connection, ReplyTally, RowTransport } from '../contract';
import { ReplyMeter } from '../common/reply-meter';

/**
 * GET a URL (node:http, given agent): the response once its headers arrive, its body still to read.
 * The deadline covers the whole reply: when it passes, the request is destroyed and reading fails.
 */
function open(url: string, agent: http.Agent, timeoutMs: number, headers: Record<string, string> = {}): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.startsWith('https:') ? https.get : http.get)(url, { agent, headers }, resolve).on('error', reject);
    const timer = setTimeout(() => request.destroy(new Error(`timeout of ${timeoutMs}ms exceeded`)), timeoutMs);
    request.on('close', () => clearTimeout(timer));
  });
}

/** GET a URL and return the body text with its Content-Length; any status but 200 rejects. */
export async function get(url: string, agent: http.Agent, timeoutMs: number): Promise<{ text: string; length: number }> {
  return textOf(await open(url, agent, timeoutMs));
}

async function textOf(res: http.IncomingMessage): Promise<{ text: string; length: number }> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
  return { text, length: Number(res.headers['content-length'] ?? Number.NaN) };
}

/**
 * Node's global agent, as the blog's axios uses (or one like it: `fresh`); under TLS an https.Agent with the
 * global agent's settings and session cache, trusting the run's CA (and holding the client certificate for mtls).
 */
export function defaultAgent(settings: Settings, fresh = false): http.Agent {
  const like = { keepAlive: true, scheduling: 'lifo', timeout: 5000 } as const;
  // ALPN http/1.1 offered as undici and curl do (Node's https offers none unless told).
  if (settings.security.mode !== 'plain') return new https.Agent({ ...like, ...clientTlsOptions(settings.security), ALPNProtocols: ['http/1.1'] });
  return fresh ? new http.Agent(like) : http.globalAgent;
}

/**
 * server-a over HTTP/1.1 with node:http and JSON.parse: the blog's JSON call without Nest or axios;
 * replies of NDJSON_FROM_ROWS rows or more are asked for as an NDJSON stream, as the tuned client does.
 * `agent` decides the connection policy (the bare variant keeps Node's default global agent, as
 * axios does; a tuned client passes a pool that keeps its sockets).
 */
export class BareJsonTransport implements RowTransport {
  readonly name = 'json' as const;
  private readonly meter = new ReplyMeter();
  private readonly sharedConnection: Connection;

  constructor(
    private readonly settings: Settings,
    private readonly agent: http.Agent = defaultAgent(settings),
    private readonly freshAgent: () => http.Agent = () => defaultAgent(settings, true),
  ) {
    this.sharedConnection = this.connect(agent, async () => undefined);
  }

  shared(): Connection {
    return this.sharedConnection;
  }

  openFresh(): Connection {
    const agent = this.freshAgent();
    return this.connect(agent, async () => agent.destroy());
  }

  takeReplies(): ReplyTally {
    return this.meter.take();
  }

  async readServerMetrics(resetPeak: boolean): Promise<ProcessSample> {
    const { text } = await get(`${this.settings.serverAUrl}/metrics?resetPeak=${resetPeak}`, this.agent, this.settings.callTimeoutMs);
    return JSON.parse(text) as ProcessSample;
  }

  private connect(agent: http.Agent, close: () => Promise<void>): Connection {
    const base = `${this.settings.serverAUrl}/server-a/`;
    const one = async (rows: number, deadlineMs: number): Promise<unknown> => {
      // Large replies come as NDJSON, parsed as they arrive: the same as the tuned Nest client (stream-json-replies).
      const res = await open(base + rows, agent, deadlineMs, {
        ...(rows >= NDJSON_FROM_ROWS ? { accept: NDJSON_MEDIA_TYPE } : {}),
        ...deadlineHeader(deadlineMs),
      });
      if (res.statusCode === 200 && isNdjson(res.headers['content-type'])) {
        const read = await readNdjson(res);
        this.meter.record(read.bytes, read.parseMs);
        return { samples: read.values };
      }
      const { text, length } = await textOf(res);
      const started = performance.now();
      const value: unknown = JSON.parse(text);
      this.meter.record(length, performance.now() - started);
      return value;
    };
    return { fetchAll: (rows, requests, deadlineMs) => Promise.all(Array.from({ length: requests }, () => one(rows, deadlineMs))), close };
  }
}
