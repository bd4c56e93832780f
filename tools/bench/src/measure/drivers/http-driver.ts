import * as http from 'node:http';
import { parseCallSamples } from '@bench/harness';
import { callsOf, requestBoundMs } from '../../plan';
import type { Measurement } from '../../model';
import type { CaseCall, ClientDriver } from './driver';
import { errorText } from '../../cli';

/** How long the client may take to describe itself or say it is ready. */
const INFO_TIMEOUT_MS = 10_000;
/** How long its path measurement may take (connects, pings and an 8 MiB transfer, at up to wan's RTT). */
const PATH_TIMEOUT_MS = 120_000;

/** Drives the client app's POST /bench/run and GET /bench/info, sending its control token when it has one. */
export class HttpClientDriver implements ClientDriver {
  constructor(
    private readonly clientUrl: string,
    private readonly token: string | null = null,
  ) {}

  async runCase(call: CaseCall, signal?: AbortSignal): Promise<Measurement> {
    // Every call of the request has its deadline in the client; this wait covers them all and then some.
    const body = await request(`${this.clientUrl}/bench/run`, 'POST', call, requestBoundMs(callsOf(call), call.deadlineMs), this.token, signal);
    const reply = parseCallSamples(body);
    if (!reply.ok) throw new Error(`POST ${this.clientUrl}/bench/run: the client's reply is not a case run: ${reply.error.message}`);
    return reply.value;
  }

  async describe(): Promise<Record<string, unknown>> {
    return (await request(`${this.clientUrl}/bench/info`, 'GET', undefined, INFO_TIMEOUT_MS, this.token)) as Record<string, unknown>;
  }

  /** The client's own measurement of its path to each server (GET /bench/path); rejects when it cannot say. */
  async path(): Promise<Record<string, unknown>> {
    return (await request(`${this.clientUrl}/bench/path`, 'GET', undefined, PATH_TIMEOUT_MS, this.token)) as Record<string, unknown>;
  }

  /** Whether the client and both its servers answer (GET /health/ready): null when ready, else why not. */
  async notReady(): Promise<string | null> {
    try {
      await request(`${this.clientUrl}/health/ready`, 'GET', undefined, INFO_TIMEOUT_MS, this.token);
      return null;
    } catch (error) {
      return errorText(error);
    }
  }
}

/** A JSON request with node:http, ended when no answer comes within `timeoutMs`. */
function request(url: string, method: 'GET' | 'POST', payload: unknown, timeoutMs: number, token: string | null, signal?: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const data = payload === undefined ? undefined : Buffer.from(JSON.stringify(payload));
    const headers: http.OutgoingHttpHeaders = data ? { 'content-type': 'application/json', 'content-length': data.length } : {};
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const req = http.request(
      url,
      {
        method,
        signal,
        agent: false,
        timeout: timeoutMs,
        headers,
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
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${Math.round(timeoutMs / 1000)} s`)));
    req.on('error', reject);
    req.end(data);
  });
}
