import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { isTuned, processSampler, type Settings } from '@bench/config';
import { AppModule } from './app.module';

/** Server keep-alive for the tuned variant: longer than the tuned client's 60 s idle timeout. */
const KEEP_ALIVE_MS = 65_000;

/**
 * Creates server-a on the HTTP platform its variant asks for: Express as the blog had it, or Fastify
 * (tuning `fastify-adapter`), with the other named tunings applied. Reply serialization is timed on
 * both (Express: timed res.json middleware in AppModule; Fastify: a timed reply serializer).
 */
export async function createServerA(settings: Settings): Promise<INestApplication> {
  const logger: ('error' | 'warn')[] = ['error', 'warn'];
  if (isTuned(settings.variant, 'fastify-adapter')) {
    const adapter = new FastifyAdapter(isTuned(settings.variant, 'long-keep-alive') ? { keepAliveTimeout: KEEP_ALIVE_MS } : {});
    adapter.getInstance().setReplySerializer((payload: unknown) => {
      const started = performance.now();
      const text = JSON.stringify(payload);
      processSampler().addPhase('encode', performance.now() - started);
      return text;
    });
    return NestFactory.create<NestFastifyApplication>(AppModule.register(settings), adapter, { logger });
  }
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(settings), { logger });
  if (isTuned(settings.variant, 'long-keep-alive')) {
    const server = app.getHttpServer();
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  }
  return app;
}
