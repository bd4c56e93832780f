import * as http from 'node:http';
import type { ProcessSample, Settings } from '@bench/config';
import { ReplyMeter, type Connection, type ReplyTally, type RowTransport } from '@bench/harness';

/** GET a URL and return the body text with its Content-Length (node:http, given agent, deadline). */
function get(url: string, agent: http.Agent, timeoutMs: number): Promise<{ text: string; length: number }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => request.destroy(new Error(`timeout of ${timeoutMs}ms exceeded`)), timeoutMs);
    const request = http
      .get(url, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
          resolve({ text, length: Number(res.headers['content-length'] ?? Number.NaN) });
        });
      })
      .on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
  });
}

/**
 * server-a over HTTP/1.1 with node:http and JSON.parse: the blog's JSON call without Nest or axios.
 * `agent` decides the connection policy (the bare variant keeps Node's default global agent, as
 * axios does; a tuned client passes a pool that keeps its sockets).
 */
export class BareJsonTransport implements RowTransport {
  readonly name = 'json' as const;
  private readonly meter = new ReplyMeter();
  private readonly sharedConnection: Connection;

  constructor(
    private readonly settings: Settings,
    private readonly agent: http.Agent = http.globalAgent,
    private readonly freshAgent: () => http.Agent = () => new http.Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5000 }),
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
      const { text, length } = await get(base + rows, agent, deadlineMs);
      const started = performance.now();
      const value: unknown = JSON.parse(text);
      this.meter.record(length, performance.now() - started);
      return value;
    };
    return { fetchAll: (rows, requests, deadlineMs) => Promise.all(Array.from({ length: requests }, () => one(rows, deadlineMs))), close };
  }
}
