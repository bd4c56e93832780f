import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { resetStalledReplies } from '../src/stalled-replies';

// A reply whose caller stopped taking bytes is reset once it stalled for the limit; one whose caller
// reads slowly, or that the server is still producing, is kept.

const STALL_MS = 300;
/** Far more than a paused caller takes in (its stream window, 64 KiB), a few seconds of slow reading. */
const REPLY_BYTES = 1024 * 1024;

let server: http2.Http2Server;
let url: string;

beforeAll(async () => {
  server = http2.createServer();
  resetStalledReplies(server, STALL_MS);
  // `/late` starts its reply after twice the stall limit, as a reply still being produced does;
  // `/idle` sends its headers and a few bytes, then waits twice the limit before ending, as a
  // bidirectional stream waiting for its caller's next message does.
  server.on('stream', (stream, headers) => {
    const reply = () => (stream.respond({ ':status': 200 }), stream.end(Buffer.alloc(REPLY_BYTES)));
    if (headers[':path'] === '/late') setTimeout(reply, 2 * STALL_MS);
    else if (headers[':path'] === '/idle') {
      stream.respond({ ':status': 200 });
      stream.write(Buffer.alloc(16));
      setTimeout(() => stream.end(), 2 * STALL_MS);
    } else reply();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Requests `path`, reading its body as `read` says; resolves with the stream's RST code and the bytes read. */
function fetchReply(path: string, read: (stream: http2.ClientHttp2Stream) => void): Promise<{ rstCode: number; bytes: number }> {
  const session = http2.connect(url);
  session.on('error', () => undefined);
  return new Promise((resolve) => {
    const stream = session.request({ ':path': path });
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
    stream.on('error', () => undefined);
    stream.on('close', () => (session.destroy(), resolve({ rstCode: stream.rstCode ?? 0, bytes })));
    read(stream);
  });
}

it('resets a reply its caller stopped reading', async () => {
  const outcome = await fetchReply('/', (stream) => stream.pause());
  expect(outcome.rstCode).toBe(http2.constants.NGHTTP2_CANCEL);
});

it('keeps a reply its caller reads slowly, a pause shorter than the limit at a time', async () => {
  const outcome = await fetchReply('/', (stream) => {
    stream.pause();
    const tick = setInterval(() => (stream.resume(), setImmediate(() => stream.pause())), STALL_MS / 3);
    stream.on('close', () => clearInterval(tick));
  });
  expect(outcome).toEqual({ rstCode: http2.constants.NGHTTP2_NO_ERROR, bytes: REPLY_BYTES });
});

it('keeps a reply the server is still producing past the limit', async () => {
  expect(await fetchReply('/late', () => undefined)).toEqual({ rstCode: http2.constants.NGHTTP2_NO_ERROR, bytes: REPLY_BYTES });
});

it('keeps a stream whose reply started and has nothing queued past the limit', async () => {
  expect(await fetchReply('/idle', () => undefined)).toEqual({ rstCode: http2.constants.NGHTTP2_NO_ERROR, bytes: 16 });
});
