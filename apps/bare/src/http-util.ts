import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** Sends a JSON body with its Content-Length, as Express's res.json does. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': text.length });
  res.end(text);
}

/**
 * Reads a request body up to `limit` bytes; larger bodies are refused (413) rather than buffered, and
 * compressed ones (415) rather than inflated: no caller of ours compresses a request (docs/reliability.md).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const refuse = (status: number, message: string): void => {
      reject(Object.assign(new Error(message), { status }));
      req.resume();
    };
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (encoding !== 'identity') return refuse(415, `content encoding ${JSON.stringify(encoding)} is not accepted: send the body uncompressed`);
    if (Number(req.headers['content-length'] ?? 0) > limit) return refuse(413, `body larger than ${limit} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    const collect = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      // The rest is read and dropped, so the caller gets its 413 (the request timeout ends an endless body).
      req.off('data', collect);
      chunks.length = 0;
      refuse(413, `body larger than ${limit} bytes`);
    };
    req.on('data', collect);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Closing a node:http server for stopOnSignals: stop accepting, then drop idle keep-alive sockets. */
export function closable(server: Server): { close(): Promise<void> } {
  return {
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}

/** Listens, turning a busy port into the shared explanation. */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
