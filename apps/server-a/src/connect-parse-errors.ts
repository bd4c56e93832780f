import { Code, type ConnectRouter } from '@connectrpc/connect';
import type { UniversalHandler, UniversalServerResponse } from '@connectrpc/connect/protocol';

/** How connect-es words a request whose bytes are not a message of the method's input type. */
const PARSE_ERROR_PREFIX = 'parse binary:';
const GRPC_INVALID_ARGUMENT = String(Code.InvalidArgument);

/**
 * connect-es answers undecodable request bytes with `internal` (gRPC INTERNAL, HTTP 500), as grpc-go
 * does, before any interceptor or handler sees the request; they are the caller's mistake, and every
 * other server here (server-b, bare) answers INVALID_ARGUMENT, as docs/apps.md promises. So each handler
 * of the router is wrapped to turn that one answer into `invalid_argument` (HTTP 400, grpc-status 3),
 * keeping connect-es's message. Replies that are not that error pass through untouched (a success's
 * body is never read here).
 */
export function answerParseErrorsAsInvalidArgument(router: ConnectRouter): void {
  router.handlers.forEach((handler, index) => {
    const wrapped = async (request: Parameters<UniversalHandler>[0]): Promise<UniversalServerResponse> => retag(await handler(request));
    router.handlers[index] = Object.assign(wrapped, handler);
  });
}

async function retag(response: UniversalServerResponse): Promise<UniversalServerResponse> {
  // gRPC protocol: a unary request is parsed before the first reply byte, so its status is already in the trailer.
  const trailer = response.trailer;
  if (trailer?.get('grpc-status') === String(Code.Internal) && decodeURIComponent(trailer.get('grpc-message') ?? '').startsWith(PARSE_ERROR_PREFIX)) {
    trailer.set('grpc-status', GRPC_INVALID_ARGUMENT);
    return response;
  }
  // Connect protocol: the error is a small JSON body with HTTP 500.
  if (response.status !== 500 || !response.body) return response;
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  const error = parseJson(text) as { code?: unknown; message?: unknown } | undefined;
  if (error?.code !== 'internal' || typeof error.message !== 'string' || !error.message.startsWith(PARSE_ERROR_PREFIX)) {
    return { ...response, body: once(Buffer.from(text)) };
  }
  const body = Buffer.from(JSON.stringify({ ...error, code: 'invalid_argument' }));
  response.header?.set('content-length', String(body.length));
  return { ...response, status: 400, body: once(body) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}
