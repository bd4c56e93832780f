import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** Sends a JSON body with its Content-Length, as Express's res.json does. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': text.length });
  res.end(text);
}

/** Reads a request body up to `limit` bytes; larger bodies are refused rather than buffered. */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(Object.assign(new Error(`body larger than ${limit} bytes`), { status: 413 }));
        req.destroy();
      } else chunks.push(chunk);
    });
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
