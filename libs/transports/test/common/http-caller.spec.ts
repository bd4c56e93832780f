import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { echoCodec, PROTOBUF_MEDIA_TYPE } from '@bench/proto';
import { jsonCaller } from '../../src/json/caller';
import { protobufCaller } from '../../src/proto-h1/caller';

type Echo = { content: string };

/** server-a's echo routes on loopback: the body back as it came, with its media type, and what each request carried. */
async function startEcho(): Promise<{ url: string; seen: { method: string; type: string | undefined }[]; close: () => Promise<void> }> {
  const seen: { method: string; type: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', type: req.headers['content-type'] });
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' }).end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/echo`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('message callers over HTTP/1.1 (json, proto-h1)', () => {
  const content = 'hello';
  const call = (url: string) => ({ url, request: { content }, keepAlive: true, timeoutMs: 5_000, check: (reply: Echo) => expect(reply).toEqual({ content }) });

  it.each([
    ['json', 'application/json', (url: string) => jsonCaller(call(url))],
    ['proto-h1', PROTOBUF_MEDIA_TYPE, (url: string) => protobufCaller(call(url), echoCodec())],
  ])('%s POSTs the request in its format and decodes every reply before its check', async (_, type, makeCaller) => {
    const server = await startEcho();
    try {
      const caller = makeCaller(server.url);
      for (let i = 0; i < 3; i++) await caller.call();
      await caller.close();
      expect(server.seen).toEqual(Array.from({ length: 3 }, () => ({ method: 'POST', type })));
    } finally {
      await server.close();
    }
  });
});
