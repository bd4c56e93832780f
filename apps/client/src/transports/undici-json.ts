import { Pool } from 'undici';
import type { Connection, ReplyMeter } from '@bench/harness';

/**
 * The tuned client's JSON calls (tuning `undici-pool`): one undici Pool to server-a that opens at most
 * `connections` sockets and keeps them, so bursts reuse connections instead of churning them, with none
 * of axios's per-request machinery. The body is parsed with JSON.parse and timed, as everywhere else.
 */
export function undiciConnection(origin: string, routePrefix: string, connections: number, timeoutMs: number, meter: ReplyMeter): Connection {
  const pool = new Pool(origin, { connections, keepAliveTimeout: 60_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const one = async (rows: number, deadlineMs: number): Promise<unknown> => {
    const limits = { headersTimeout: deadlineMs, bodyTimeout: deadlineMs };
    const { statusCode, headers, body } = await pool.request({ path: `${routePrefix}${rows}`, method: 'GET', ...limits });
    const text = await body.text();
    if (statusCode !== 200) throw new Error(`HTTP ${statusCode}: ${text.slice(0, 200)}`);
    const started = performance.now();
    const value: unknown = JSON.parse(text);
    meter.record(Number(headers['content-length'] ?? Number.NaN), performance.now() - started);
    return value;
  };
  return {
    fetchAll: (rows, requests, deadlineMs) => Promise.all(Array.from({ length: requests }, () => one(rows, deadlineMs))),
    close: () => pool.close(),
  };
}
