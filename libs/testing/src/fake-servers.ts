import * as grpc from '@grpc/grpc-js';
import * as http from 'node:http';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { processSampler } from '@bench/config';
import type { ConnectRouter } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';

/** connect-node's handler type (not exported by name): what it takes as a fallback. */
type NodeHandler = ReturnType<typeof connectNodeAdapter>;
import { connectSample, getSamplesCodec, PROTOBUF_MEDIA_TYPE, samplePackageDefinition } from '@bench/proto';
import { acceptsNdjson, buildRows, encodeNdjson, NDJSON_MEDIA_TYPE, type SampleRow } from '@bench/samples';

/** Rows a fake server sends for a request of `count`; tests swap it to simulate a wrong server. */
export type RowSource = (count: number) => SampleRow[];

export interface FakeServer {
  url: string;
  rows: RowSource;
  /** Delay before each sample reply, to simulate a slow or stuck server. */
  delayMs: number;
  /** The request headers of the last Connect call (h2c only): what the client offered, e.g. compression. */
  lastConnectHeaders?: Headers;
  /** Text appended to a streamed (NDJSON) sample reply, to simulate a garbled or truncated stream. */
  ndjsonTail: string;
  close(): Promise<void>;
}

/**
 * A protocol-level stand-in for server-a (GET /server-a/:count, its protobuf twin /server-a/protobuf/:count,
 * /health, /metrics) on a free loopback port, so client tests need no app of ours beyond the one under
 * test; with `protocol` 'h2c', the same over HTTP/2 cleartext (server-a's second listener).
 */
export async function startFakeJsonServer(protocol: 'http/1.1' | 'h2c' = 'http/1.1'): Promise<FakeServer> {
  const fake: FakeServer = { url: '', rows: buildRows, delayMs: 0, ndjsonTail: '', close: async () => undefined };
  const handler = (req: http.IncomingMessage | http2.Http2ServerRequest, either: http.ServerResponse | http2.Http2ServerResponse) => {
    // Both response types take the same writeHead/write/end calls here; @types/node 24's overloads differ, so one is picked.
    const res = either as http.ServerResponse;
    const url = req.url ?? '';
    const protobuf = /^\/server-a\/protobuf\/(\d+)$/.exec(url);
    if (protobuf) {
      const bytes = getSamplesCodec().responseSerialize({ samples: fake.rows(Number(protobuf[1])) });
      const send = () => res.writeHead(200, { 'content-type': PROTOBUF_MEDIA_TYPE, 'content-length': bytes.length }).end(bytes);
      return void (fake.delayMs > 0 ? setTimeout(send, fake.delayMs) : send());
    }
    const bulk = /^\/path\/bulk\?bytes=(\d+)$/.exec(url);
    if (bulk) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': Number(bulk[1]) });
      return void res.end(Buffer.alloc(Number(bulk[1])));
    }
    const match = /^\/server-a\/(\d+)$/.exec(url);
    if (match && acceptsNdjson(req.headers.accept)) {
      // Asked for a stream (tuning stream-json-replies): the rows as NDJSON, in two writes.
      const lines = encodeNdjson(fake.rows(Number(match[1]))) + fake.ndjsonTail;
      res.writeHead(200, { 'content-type': NDJSON_MEDIA_TYPE });
      res.write(lines.slice(0, lines.length >> 1));
      return void res.end(lines.slice(lines.length >> 1));
    }
    const body =
      url === '/health'
        ? { status: 'SERVING' }
        : url.startsWith('/metrics')
          ? processSampler().read(url.includes('resetPeak=true'))
          : match
            ? { samples: fake.rows(Number(match[1])) }
            : null;
    const text = Buffer.from(JSON.stringify(body ?? { statusCode: 404 }));
    const send = () => {
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json', 'content-length': text.length });
      res.end(text);
    };
    if (match && fake.delayMs > 0) setTimeout(send, fake.delayMs);
    else send();
  };
  // Over h2c it also answers sample.SampleService as connect-es does (server-a mounts Connect on that listener).
  const server = protocol === 'h2c' ? http2.createServer(connectNodeAdapter({ routes: fakeConnectRoutes(fake), fallback: handler as unknown as NodeHandler })) : http.createServer(handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  if (protocol === 'h2c') (server as http2.Http2Server).on('session', (session) => sessions.add(session).size);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise((resolve) => {
      // An HTTP/2 server closes only once its sessions have: a client's open session would hold it.
      sessions.forEach((session) => session.close());
      server.close(() => resolve());
    });
  return fake;
}

/** sample.SampleService/GetSamples with connect-es, from the fake's rows and delay. */
function fakeConnectRoutes(fake: FakeServer): (router: ConnectRouter) => void {
  return (router) =>
    router.service(connectSample.SampleService, {
      getSamples: async (request, context) => {
        fake.lastConnectHeaders = context.requestHeader;
        if (fake.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
        return { samples: fake.rows(request.count) };
      },
    });
}

/** The same for server-b: sample.SampleService, grpc.health.v1.Health, bench.metrics.ProcessMetrics and bench.path.PathProbe with plain grpc-js. */
export async function startFakeGrpcServer(): Promise<FakeServer> {
  const fake: FakeServer = { url: '', rows: buildRows, delayMs: 0, ndjsonTail: '', close: async () => undefined };
  const loaded = grpc.loadPackageDefinition(samplePackageDefinition()) as unknown as {
    sample: { SampleService: { service: grpc.ServiceDefinition } };
    grpc: { health: { v1: { Health: { service: grpc.ServiceDefinition } } } };
    bench: { metrics: { ProcessMetrics: { service: grpc.ServiceDefinition } }; path: { PathProbe: { service: grpc.ServiceDefinition } } };
  };
  const server = new grpc.Server();
  server.addService(loaded.sample.SampleService.service, {
    GetSamples: (call: grpc.ServerUnaryCall<{ count: number }, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const reply = () => callback(null, { samples: fake.rows(call.request.count) });
      if (fake.delayMs > 0) setTimeout(reply, fake.delayMs);
      else reply();
    },
  });
  server.addService(loaded.grpc.health.v1.Health.service, {
    Check: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => callback(null, { status: 'SERVING' }),
  });
  server.addService(loaded.bench.metrics.ProcessMetrics.service, {
    Read: (call: grpc.ServerUnaryCall<{ resetPeak: boolean }, unknown>, callback: grpc.sendUnaryData<unknown>) =>
      callback(null, processSampler().read(call.request.resetPeak)),
  });
  server.addService(loaded.bench.path.PathProbe.service, {
    // No back-pressure: the fake's transfers are small.
    Bulk: (call: grpc.ServerWritableStream<{ bytes: number }, unknown>) => {
      for (let sent = 0; sent < call.request.bytes; sent += 65_536) call.write({ data: Buffer.alloc(Math.min(65_536, call.request.bytes - sent)) });
      call.end();
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  fake.url = `127.0.0.1:${port}`;
  fake.close = () => new Promise((resolve) => server.tryShutdown(() => resolve()));
  return fake;
}
