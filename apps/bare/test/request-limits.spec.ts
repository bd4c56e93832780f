import * as grpc from '@grpc/grpc-js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SETTINGS, REQUEST_LIMITS } from '@bench/config';
import { limitGrpcSessions } from '@bench/proto';
import { BOMB_INFLATED_BYTES, grpcFrame, gzipOfZeros, HALF_HTTP2_PREFACE, HALF_REQUEST_HEAD, http2Request, rssGrowthDuring, stallOutcome, DROPPED_AT_LIMIT } from '@bench/testing';
import { createGrpcServer } from '../src/grpc-server';
import { readBody, sendJson } from '../src/http-util';
import { createJsonServer } from '../src/json-server';

// Issue 31's hostile callers against the bare apps: the same limits as the Nest apps.

const HANDSHAKE_MS = 500;
const settings = { ...DEFAULT_SETTINGS, handshakeTimeoutMs: HANDSHAKE_MS };

function listening(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

describe('bare server-a: request head timeout', () => {
  it('drops a connection that stops half-way through its request head', async () => {
    const server = createJsonServer(settings);
    const port = await listening(server);
    try {
      expect(await stallOutcome(port, HALF_REQUEST_HEAD, HANDSHAKE_MS)).toBe(DROPPED_AT_LIMIT);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("bare client's body reader (POST /bench/run)", () => {
  const limit = REQUEST_LIMITS.control.bytes;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) =>
      readBody(req, limit).then(
        (text) => sendJson(res, 200, { length: text.length }),
        (error: Error & { status: number }) => sendJson(res, error.status, { statusCode: error.status, message: error.message }),
      ),
    );
    url = `http://127.0.0.1:${await listening(server)}/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('reads a body within the limit', async () => {
    const answer = await fetch(url, { method: 'POST', body: JSON.stringify({ rows: 1 }) });
    expect(answer.status).toBe(200);
  });

  it('refuses a gzip body with 415 without inflating it', async () => {
    const answer = await fetch(url, { method: 'POST', headers: { 'content-encoding': 'gzip' }, body: await gzipOfZeros() });
    expect(answer.status).toBe(415);
  });

  it('refuses a body over the limit with 413, announced or streamed', async () => {
    expect((await fetch(url, { method: 'POST', body: Buffer.alloc(limit + 1, 0x20) })).status).toBe(413);
    const streamed = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new Uint8Array(limit / 2));
        controller.close();
      },
    });
    const answer = await fetch(url, { method: 'POST', body: streamed, duplex: 'half' } as RequestInit);
    expect(answer.status).toBe(413);
  });
});

describe('bare server-b: request limits and handshakes', () => {
  let server: grpc.Server;
  let port: number;
  let base: string;

  beforeAll(async () => {
    server = createGrpcServer(settings);
    port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    limitGrpcSessions(server, HANDSHAKE_MS);
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => server.forceShutdown());

  const GET_SAMPLES = { ':path': '/sample.SampleService/GetSamples', 'content-type': 'application/grpc', te: 'trailers' };

  it('refuses a gzip bomb with RESOURCE_EXHAUSTED without inflating it, and an oversized message likewise', async () => {
    const bomb = await gzipOfZeros();
    const { result, grewBytes } = await rssGrowthDuring(() => http2Request(base, { ...GET_SAMPLES, 'grpc-encoding': 'gzip' }, grpcFrame(bomb, true)));
    expect(result.trailers['grpc-status']).toBe('8');
    expect(grewBytes).toBeLessThan(BOMB_INFLATED_BYTES / 2);
    const over = await http2Request(base, GET_SAMPLES, grpcFrame(Buffer.alloc(REQUEST_LIMITS.grpc.bytes + 1)));
    expect(over.trailers['grpc-status']).toBe('8');
  });

  it('drops a connection that stops half-way through the HTTP/2 preface', async () => {
    expect(await stallOutcome(port, HALF_HTTP2_PREFACE, HANDSHAKE_MS)).toBe(DROPPED_AT_LIMIT);
  });
});
