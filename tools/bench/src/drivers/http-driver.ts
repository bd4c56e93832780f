import * as http from 'node:http';
import type { Measurement } from '../model';
import type { CaseCall, ClientDriver } from './driver';

/** Longest one case may take before the bench gives up on it (the 1M-row case takes ~1 min). */
const CASE_TIMEOUT_MS = 15 * 60_000;

/** Drives the client app's POST /bench/run and GET /bench/info. */
export class HttpClientDriver implements ClientDriver {
  constructor(private readonly clientUrl: string) {}

  async runCase(call: CaseCall, signal?: AbortSignal): Promise<Measurement> {
    const body = await request(`${this.clientUrl}/bench/run`, 'POST', call, signal);
    return body as Measurement;
  }

  async describe(): Promise<Record<string, unknown>> {
    return (await request(`${this.clientUrl}/bench/info`, 'GET', undefined)) as Record<string, unknown>;
  }
}

/** A JSON request with node:http (no client-side timeout shorter than the slowest case). */
function request(url: string, method: 'GET' | 'POST', payload: unknown, signal?: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const data = payload === undefined ? undefined : Buffer.from(JSON.stringify(payload));
    const req = http.request(
      url,
      {
        method,
        signal,
        agent: false,
        timeout: CASE_TIMEOUT_MS,
        headers: data ? { 'content-type': 'application/json', 'content-length': data.length } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            return reject(new Error(`${method} ${url}: HTTP ${res.statusCode}, not JSON: ${text.slice(0, 200)}`));
          }
          if (res.statusCode !== 200) {
            const message = (parsed as { message?: unknown }).message;
            return reject(new Error(`HTTP ${res.statusCode}: ${typeof message === 'string' ? message : text.slice(0, 300)}`));
          }
          resolve(parsed);
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${CASE_TIMEOUT_MS / 60_000} min`)));
    req.on('error', reject);
    req.end(data);
  });
}
