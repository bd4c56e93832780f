import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { pipeline } from 'node:stream';
import { limitHttp1Connections, logTlsStates, parseBulkRequest, processSampler, type Settings } from '@bench/config';
import { acceptsNdjson, buildRows, callerSignal, DEADLINE_HEADER, parseDeadlineHeader } from '@bench/samples';
import { JSON_MEDIA_TYPE, JSON_ROWS_PATH, jsonRowsReply, listenerTls, rowCountOf } from '@bench/transports';
import { sendJson } from './http-util';

/**
 * server-a's routes on a plain node:http server (not yet listening), with the listeners' connection limits;
 * node:https under TLS (BENCH_SECURITY: TLS 1.3, ALPN http/1.1, client certificates for mtls).
 */
export function createJsonServer(settings: Settings): Server {
  const sampler = processSampler();
  const handler: RequestListener = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const match = JSON_ROWS_PATH.exec(url.pathname);
    if (req.method !== 'GET') return sendJson(res, 405, { statusCode: 405, error: 'Method Not Allowed' });
    if (url.pathname === '/health') return sendJson(res, 200, { status: 'SERVING', service: 'server-a' });
    if (url.pathname === '/metrics') return sendJson(res, 200, sampler.read(url.searchParams.get('resetPeak') === 'true'));
    if (url.pathname === '/path/bulk') {
      // The client's path probe (GET /bench/path) times this transfer: zero bytes, no serializer.
      const bulk = parseBulkRequest({ bytes: url.searchParams.get('bytes') ?? undefined });
      if (!bulk.ok) return sendJson(res, 400, { statusCode: 400, error: 'Bad Request', ...bulk.error });
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bulk.value.bytes });
      return void res.end(Buffer.alloc(bulk.value.bytes));
    }
    if (!match) return sendJson(res, 404, { statusCode: 404, error: 'Not Found', message: `no route ${url.pathname}` });
    const count = rowCountOf(safeDecode(match[1]), settings);
    if (!count.ok) return sendJson(res, 400, { statusCode: 400, error: 'Bad Request', ...count.error });
    // Made only for the replies large enough to stop part-way: small ones pay nothing for it.
    const signal = () => callerSignal(parseDeadlineHeader(req.headers[DEADLINE_HEADER]), res);
    // NDJSON streamed as the tuned server-a streams it (stream-json-replies), or a large reply's same bytes a
    // slice at a time: paced by the socket, stopped by the caller's deadline or its going (json/server.ts).
    const reply = jsonRowsReply(count.value, { ndjson: acceptsNdjson(req.headers.accept), signal, phases: (phase, ms) => sampler.addPhase(phase, ms) });
    if (reply.kind !== 'whole') {
      res.writeHead(200, { 'content-type': reply.type, ...(reply.kind === 'sliced' ? { 'content-length': reply.length } : {}) });
      return void pipeline(reply.stream, res, () => undefined);
    }
    const built = performance.now();
    const samples = buildRows(count.value);
    const encoded = performance.now();
    sampler.addPhase('build', encoded - built);
    const text = Buffer.from(JSON.stringify({ samples }));
    sampler.addPhase('encode', performance.now() - encoded);
    res.writeHead(200, { 'content-type': JSON_MEDIA_TYPE, 'content-length': text.length });
    res.end(text);
  };
  const server = settings.security.mode === 'plain' ? createServer(handler) : secureServer(settings, handler);
  limitHttp1Connections(server, settings.handshakeTimeoutMs);
  return server;
}

/** An https.Server: the same fields node:http's has (timeouts, closeIdleConnections), typed as one for the shared limits. */
function secureServer(settings: Settings, handler: RequestListener): Server {
  const server = createTlsServer(listenerTls(settings, ['http/1.1']), handler);
  logTlsStates(server, 'server-a');
  return server as unknown as Server;
}

/** A path segment decoded, or left as it is when its %-escapes are malformed (then validation refuses it). */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
