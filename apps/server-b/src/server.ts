import { NestFactory } from '@nestjs/core';
import type { Settings } from '@bench/config';
import { grpcServerStrategy, microserviceBindings } from '@bench/transports';
import { AppModule } from './app.module';

/** server-b as created, not yet serving: listen() starts every transport it connects, close() stops them. */
export interface ServerB {
  listen(): Promise<void>;
  close(): Promise<void>;
}

/**
 * server-b as main.ts runs it, not yet listening: a Nest hybrid application whose one module's controllers
 * serve gRPC (the gRPC folder's server binding, libs/transports: the contract, the variant's codec, its
 * security, the request and session limits) and, when the settings name them (SERVER_B_MICROSERVICES),
 * Nest's microservice transports beside it, each bound by its folder's server.ts. Its HTTP adapter never
 * listens: it is only what a hybrid application is made on (docs/apps.md, "server-b: one hybrid app",
 * says why one app rather than a fourth).
 */
export async function createServerB(settings: Settings, url: string, logger: false | ('error' | 'warn')[] = ['error', 'warn']): Promise<ServerB> {
  const strategy = grpcServerStrategy(settings, url);
  const bindings = microserviceBindings(settings);
  const app = await NestFactory.create(AppModule.register(settings), { logger });
  app.connectMicroservice({ strategy }, { inheritAppConfig: true });
  for (const { options } of bindings) app.connectMicroservice(options, { inheritAppConfig: true });
  return {
    listen: async () => {
      await app.startAllMicroservices();
      await app.init();
    },
    close: () => app.close(),
  };
}
