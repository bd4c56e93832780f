// client: the blog's caller. Serves the four /client routes, the bench route and health checks.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { exitWithParent, explainListenError, loadControlAccess, loadSettings, processSampler, refusalHint, stopOnSignals, warnOnMissingNodeOptions } from '@bench/config';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { watchTlsHandshakes } from '@bench/harness';
import { AppModule } from './app.module';
import { limitClientRequests } from './http-limits';

async function main(): Promise<void> {
  exitWithParent('client');
  const settings = loadSettings();
  const access = loadControlAccess(settings.host);
  warnOnMissingNodeOptions(settings.variant, 'client');
  processSampler();
  if (settings.security.mode !== 'plain') watchTlsHandshakes(refusalHint(settings.security, 'client'));
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(settings, access), { logger: ['error', 'warn'], bodyParser: false });
  limitClientRequests(app, settings);
  stopOnSignals(app, 'client');
  try {
    await app.listen(settings.clientPort, settings.host);
  } catch (error) {
    throw new Error(explainListenError(error, { variable: 'CLIENT_PORT', port: settings.clientPort, host: settings.host }));
  }
  console.log(
    `client (${settings.variant}, ${settings.security.mode}) listening on http://${settings.host}:${settings.clientPort} ` +
      `(server-a ${settings.serverAUrl}, server-b ${settings.serverBUrl}); ${access.describe}`,
  );
}

main().catch((error: unknown) => {
  console.error(`client: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
