import type { Http2Server, Http2Session } from 'node:http2';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { isTuned, limitHttp1Connections, listenBacklogFor, limitHttp2Sessions, logTlsStates, processSampler, REPLY_LIMIT, REQUEST_LIMITS, type Settings } from '@bench/config';
import { fastifyConnectPlugin } from '@connectrpc/connect-fastify';
import { connectSample, PROTOBUF_MEDIA_TYPE } from '@bench/proto';
import { CONNECT_GRPC_SERVER, CONNECT_JSON_SERVER, CONNECT_PROTO_SERVER, connectServing, jsonH2ListenerOptions, listenerTls } from '@bench/transports';
import { AppModule } from './app.module';
import { closeAgedConnections } from './connection-age';
import { refuseCompressedBodies } from './body-formats';
import { cappedGzip } from './connect-compression';
import { answerParseErrorsAsInvalidArgument } from './connect-parse-errors';

/** Server keep-alive for the tuned variant: longer than the tuned client's 60 s idle timeout. */
const KEEP_ALIVE_MS = 65_000;

/**
 * Creates server-a on the HTTP platform its variant asks for: Express as the blog had it, or Fastify
 * (tuning `fastify-adapter`), with the other named tunings applied. Reply serialization is timed on
 * both (Express: timed res.json middleware in AppModule; Fastify: a timed reply serializer). Both read
 * JSON and protobuf (application/x-protobuf) bodies up to REQUEST_LIMITS.http for the echo routes,
 * uncompressed only (a Content-Encoding is 415: docs/reliability.md), and drop connections whose request
 * head does not arrive within the handshake limit.
 */
export async function createServerA(settings: Settings): Promise<INestApplication> {
  const bodyLimit = REQUEST_LIMITS.http.bytes;
  if (isTuned(settings.variant, 'fastify-adapter')) {
    const keepAlive = isTuned(settings.variant, 'long-keep-alive') ? { keepAliveTimeout: KEEP_ALIVE_MS } : {};
    const https = settings.security.mode === 'plain' ? {} : { https: listenerTls(settings, ['http/1.1']) };
    const adapter = fastify(new FastifyAdapter({ ...keepAlive, bodyLimit, ...https }));
    refuseCompressedBodies(adapter.getInstance());
    limitHttp1Connections(adapter.getInstance().server, settings.handshakeTimeoutMs);
    secured(adapter.getInstance().server, settings);
    if (settings.maxConnectionAgeMs > 0) closeAgedConnections(adapter.getInstance().server, settings.maxConnectionAgeMs);
    return NestFactory.create<NestFastifyApplication>(AppModule.register(settings, 'fastify'), adapter, { logger: LOGGER });
  }
  // bodyParser false: only the parsers below, not Nest's default urlencoded one, which inflates gzip bodies.
  const https = settings.security.mode === 'plain' ? {} : { httpsOptions: listenerTls(settings, ['http/1.1']) };
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(settings, 'express'), { logger: LOGGER, bodyParser: false, ...https });
  app.useBodyParser('json', { limit: bodyLimit, inflate: false });
  app.useBodyParser('raw', { type: PROTOBUF_MEDIA_TYPE, limit: bodyLimit, inflate: false });
  const server = app.getHttpServer();
  limitHttp1Connections(server, settings.handshakeTimeoutMs);
  secured(server, settings);
  if (settings.maxConnectionAgeMs > 0) closeAgedConnections(server, settings.maxConnectionAgeMs);
  // Node 18+ counts headersTimeout from a request's first byte, not from the end of the previous one, so
  // the keep-alive below needs no longer head timeout (an idle connection outlives it: tested).
  if (isTuned(settings.variant, 'long-keep-alive')) server.keepAliveTimeout = KEEP_ALIVE_MS;
  return app;
}

/** The Connect transports server-a's HTTP/2 listener serves, one line each: their folders' server bindings (libs/transports). */
const CONNECT_BINDINGS = [CONNECT_JSON_SERVER, CONNECT_PROTO_SERVER, CONNECT_GRPC_SERVER];

/**
 * server-a's second listener (transport json-h2, and the Connect transports): the same Nest module and
 * controllers on Nest's Fastify adapter with `http2: true` (json-h2's server binding gives its options:
 * h2c in cleartext, h2 under TLS). It is a second Nest application in the same process, on its own port
 * (SERVER_A_H2_PORT): a cleartext port cannot offer HTTP/1.1 and h2c at once in Fastify (no TLS, so no
 * ALPN to choose by), and Express does not run on node:http2 at all, so this listener is Fastify in every
 * variant. The same process means the same row builder, the same /metrics and phase readings as the
 * HTTP/1.1 listener. Sessions that do not finish the HTTP/2 handshake within the handshake limit are
 * destroyed, and idle ones closed (GOAWAY) after CONNECTION_LIMITS.http2Idle.
 */
export async function createServerAH2(settings: Settings): Promise<INestApplication> {
  // (Typed as the h2c options: Fastify's h2 options type differs only in `https`, which Nest's adapter passes through.)
  const adapter = new FastifyAdapter(jsonH2ListenerOptions(settings) as { http2: true });
  closeSessionsOnClose(adapter);
  limitHttp2Sessions(adapter.getInstance().server as unknown as Http2Server, settings.handshakeTimeoutMs);
  secured(adapter.getInstance().server, settings);
  // Connect reads its own bodies, and decides on their compression itself (below).
  refuseCompressedBodies(adapter.getInstance(), (url) => url.startsWith(CONNECT_PATH_PREFIX));
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(settings, 'fastify'), fastify(adapter), { logger: LOGGER });
  // Connect's handler for sample.SampleService (the Connect transports' bindings), in its own Fastify
  // scope (its no-op body parsers do not reach the Nest routes). Requests up to REQUEST_LIMITS.connect,
  // also once inflated: gzip only, inflated up to that cap (connect-compression.ts); no brotli, which none
  // of our callers sends. Only the protocols the bindings speak (Connect, gRPC): gRPC-web, on by default,
  // would be one more parser to defend.
  const connect = connectServing(CONNECT_BINDINGS, settings);
  await app.register(fastifyConnectPlugin, {
    routes: (router) => {
      connect.routes(router);
      answerParseErrorsAsInvalidArgument(router);
    },
    readMaxBytes: REQUEST_LIMITS.connect.bytes,
    writeMaxBytes: REPLY_LIMIT.bytes,
    acceptCompression: [cappedGzip],
    connect: connect.connect,
    grpc: connect.grpc,
    grpcWeb: connect.grpcWeb,
  });
  return app;
}

/**
 * Listens on `port`, with the accept queue the variant asks for (tuning listen-backlog) or Node's default.
 * Nest hands its first argument to the platform's listen, and both Express's (node:http's server.listen)
 * and Fastify's take a { port, host, backlog } object.
 */
export async function listenServerA(app: INestApplication, port: number, settings: Settings): Promise<void> {
  const backlog = listenBacklogFor(settings.variant);
  if (backlog === null) await app.listen(port, settings.host);
  else {
    // Nest's type says (port, hostname); what it does is forward its arguments to the platform unchanged.
    const listen = app.listen.bind(app) as unknown as (options: { port: number; host: string; backlog: number }) => Promise<unknown>;
    await listen({ port, host: settings.host, backlog });
  }
}

const LOGGER: ('error' | 'warn')[] = ['error', 'warn'];

/** A TLS listener logs what it negotiated (once per distinct state); a cleartext one has nothing to log. */
function secured(server: unknown, settings: Settings): void {
  if (settings.security.mode !== 'plain') logTlsStates(server as Parameters<typeof logTlsStates>[0], 'server-a');
}

/** Where Connect's routes live on the HTTP/2 listener: /sample.SampleService/<Method>. */
const CONNECT_PATH_PREFIX = `/${connectSample.SampleService.typeName}/`;

/**
 * An HTTP/2 server closes only once every session has, and a client keeps an idle session open for
 * minutes (connect-node for 15): so on close each session gets a GOAWAY (http2 session.close(): streams
 * in flight finish, no new ones start). Without it a SIGTERM waited out the 10-s grace with one idle
 * client session open and exited 1.
 */
function closeSessionsOnClose(adapter: FastifyAdapter): void {
  const instance = adapter.getInstance();
  const sessions = new Set<Http2Session>();
  instance.server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  instance.addHook('preClose', (done) => {
    for (const session of sessions) session.close();
    done();
  });
}

/**
 * Reads protobuf bodies and times JSON reply serialization on a Fastify adapter (HTTP/1.1 or HTTP/2).
 * JSON.stringify, not a response schema: Fastify's schema serializer (fast-json-stringify) took 41–44 ms
 * for 10,000 rows against 6.0–6.4 ms (docs/variants.md).
 */
function fastify(adapter: FastifyAdapter): FastifyAdapter {
  adapter.getInstance().addContentTypeParser(PROTOBUF_MEDIA_TYPE, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  adapter.getInstance().setReplySerializer((payload: unknown) => {
    const started = performance.now();
    const text = JSON.stringify(payload);
    processSampler().addPhase('encode', performance.now() - started);
    return text;
  });
  return adapter;
}
