import type { LookupFunction } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { Pool } from 'undici';
import type { TlsSessions } from './tls-sessions';
import type { Connection } from '../contract';
import type { ReplyMeter } from './reply-meter';
import { deadlineHeader, isNdjson } from '@bench/samples';
import { readStreamedRows, streamHeaders, type RowStreaming } from './streamed-rows';

/**
 * How a reply body becomes rows: JSON.parse of its text (or, with `streaming`, an NDJSON stream for large
 * replies), or a protobuf decoder of its bytes. Only this step is timed.
 */
export type BodyDecoder = { kind: 'json'; streaming: RowStreaming | null } | { kind: 'bytes'; decode: (bytes: Buffer) => unknown };

export const JSON_BODY: BodyDecoder = { kind: 'json', streaming: null };

/**
 * The tuned client's HTTP/1.1 calls (tuning `undici-pool`): one undici Pool to server-a that opens at
 * most `connections` sockets and keeps them, so bursts reuse connections instead of churning them, with
 * none of axios's per-request machinery. The body is decoded (JSON.parse, or protobuf for proto-h1) and
 * timed, as everywhere else; a streamed reply (stream-json-replies) is parsed as it arrives.
 */
export function undiciConnection(
  origin: string,
  routePrefix: string,
  connections: number,
  timeoutMs: number,
  meter: ReplyMeter,
  decoder: BodyDecoder = JSON_BODY,
  tls: ConnectionOptions | null = null,
  sessions: TlsSessions | null = null,
  /** How its sockets look the server up (tuning cached-lookup); null: Node's dns.lookup per connection. */
  lookup: LookupFunction | null = null,
): Connection {
  // undici's connector keeps a TLS session cache of its own (100 sessions) and resumes from it, within this
  // pool; with tls-session-reuse a new pool also offers the sessions the client's earlier pools were given.
  // undici's connector passes its options on to net/tls connect, `lookup` among them.
  const dial = lookup ? { ...(tls ?? {}), lookup } : tls;
  const connect = dial ? { connect: tls && sessions ? sessions.undiciConnector(origin, dial) : (dial as Pool.Options['connect']) } : {};
  // allowH2 false: undici 8 offers HTTP/2 in ALPN by default, and a TLS server-a that also speaks h2 (json-h2)
  // would take it; this connection is the HTTP/1.1 path (undici 6, measured before, spoke only HTTP/1.1).
  const pool = new Pool(origin, { connections, keepAliveTimeout: 60_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, allowH2: false, ...connect });
  const one = async (rows: number, deadlineMs: number): Promise<unknown> => {
    const limits = { headersTimeout: deadlineMs, bodyTimeout: deadlineMs };
    const streaming = decoder.kind === 'json' ? decoder.streaming : null;
    const { statusCode, headers, body } = await pool.request({ path: `${routePrefix}${rows}`, method: 'GET', headers: { ...streamHeaders(streaming, rows), ...deadlineHeader(deadlineMs) }, ...limits });
    if (statusCode === 200 && streaming !== null && isNdjson(headers['content-type'])) return readStreamedRows(body, streaming.field, meter);
    const text = decoder.kind === 'json' ? await body.text() : null;
    const bytes = text === null ? Buffer.from(await body.arrayBuffer()) : null;
    if (statusCode !== 200) throw new Error(`HTTP ${statusCode}: ${(text ?? bytes?.toString('utf8') ?? '').slice(0, 200)}`);
    const started = performance.now();
    const value: unknown = decoder.kind === 'json' ? JSON.parse(text as string) : decoder.decode(bytes as Buffer);
    meter.record(Number(headers['content-length'] ?? Number.NaN), performance.now() - started);
    return value;
  };
  return {
    fetchAll: (rows, requests, deadlineMs) => Promise.all(Array.from({ length: requests }, () => one(rows, deadlineMs))),
    // destroy, not close: a pool whose TLS handshake failed leaves the other requests of that burst pending
    // for ever (undici 6.22: ERR_TLS_CERT_ALTNAME_INVALID with 2 parallel requests), and close() waits for them.
    close: () => pool.destroy(),
  };
}
