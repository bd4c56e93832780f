import type { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Settings } from '@bench/config';
import { grpcServerStrategy } from '@bench/transports';
import { AppModule } from './app.module';

/** server-b as main.ts runs it, not yet listening: the gRPC folder's server binding (libs/transports: the contract, the variant's codec, its security, the request and session limits) on the app's module. */
export function createServerB(settings: Settings, url: string, logger: false | ('error' | 'warn')[] = ['error', 'warn']): Promise<INestMicroservice> {
  const strategy = grpcServerStrategy(settings, url);
  return NestFactory.createMicroservice(AppModule.register(settings), { strategy, logger });
}
