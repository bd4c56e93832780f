// server-a: the blog's JSON API. Reads its settings, serves GET /server-a/:count, stops on SIGTERM.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { explainListenError, isTuned, loadSettings, processSampler, stopOnSignals } from '@bench/config';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  const settings = loadSettings();
  processSampler();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(settings), { logger: ['error', 'warn'] });
  if (isTuned(settings.variant, 'no-etag')) app.set('etag', false);
  if (isTuned(settings.variant, 'long-keep-alive')) {
    const server = app.getHttpServer();
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  }
  stopOnSignals(app, 'server-a');
  try {
    await app.listen(settings.serverAPort, settings.host);
  } catch (error) {
    throw new Error(explainListenError(error, { variable: 'SERVER_A_PORT', port: settings.serverAPort, host: settings.host }));
  }
  console.log(`server-a (JSON over HTTP, ${settings.variant}) listening on http://${settings.host}:${settings.serverAPort}`);
}

main().catch((error: unknown) => {
  console.error(`server-a: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
