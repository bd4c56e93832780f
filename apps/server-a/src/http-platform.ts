import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { isTuned, processSampler, type Settings } from '@bench/config';
import { PROTOBUF_MEDIA_TYPE } from '@bench/proto';
import { AppModule } from './app.module';
import { BODY_LIMIT_BYTES } from './body-formats';

/** Server keep-alive for the tuned variant: longer than the tuned client's 60 s idle timeout. */
const KEEP_ALIVE_MS = 65_000;

/**
 * Creates server-a on the HTTP platform its variant asks for: Express as the blog had it, or Fastify
 * (tuning `fastify-adapter`), with the other named tunings applied. Reply serialization is timed on
 * both (Express: timed res.json middleware in AppModule; Fastify: a timed reply serializer). Both read
 * JSON and protobuf (application/x-protobuf) bodies up to BODY_LIMIT_BYTES for the echo routes.
 */
export async function createServerA(settings: Settings): Promise<INestApplication> {
  const logger: ('error' | 'warn')[] = ['error', 'warn'];
  if (isTuned(settings.variant, 'fastify-adapter')) {
    const keepAlive = isTuned(settings.variant, 'long-keep-alive') ? { keepAliveTimeout: KEEP_ALIVE_MS } : {};
    const adapter = new FastifyAdapter({ ...keepAlive, bodyLimit: BODY_LIMIT_BYTES });
    adapter.getInstance().addContentTypeParser(PROTOBUF_MEDIA_TYPE, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    adapter.getInstance().setReplySerializer((payload: unknown) => {
      const started = performance.now();
      const text = JSON.stringify(payload);
      processSampler().addPhase('encode', performance.now() - started);
      return text;
    });
    return NestFactory.create<NestFastifyApplication>(AppModule.register(settings), adapter, { logger });
  }
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(settings), { logger });
  app.useBodyParser('json', { limit: BODY_LIMIT_BYTES });
  app.useBodyParser('raw', { type: PROTOBUF_MEDIA_TYPE, limit: BODY_LIMIT_BYTES });
  if (isTuned(settings.variant, 'long-keep-alive')) {
    const server = app.getHttpServer();
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  }
  return app;
}
