import type { Server } from '@grpc/grpc-js';
import type { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { grpcCodecFor, type Settings } from '@bench/config';
import { limitGrpcSessions, serverGrpcOptions } from '@bench/proto';
import { AppModule } from './app.module';

/** server-b as main.ts runs it, not yet listening: the contract, the variant's codec and the request limits. */
export function createServerB(settings: Settings, url: string, logger: false | ('error' | 'warn')[] = ['error', 'warn']): Promise<INestMicroservice> {
  return NestFactory.createMicroservice(AppModule.register(settings), { ...serverGrpcOptions(url, grpcCodecFor(settings.variant)), logger });
}

/** Listens, then applies the handshake limit to the HTTP/2 listener grpc-js has bound. */
export async function listenServerB(app: INestMicroservice, settings: Pick<Settings, 'handshakeTimeoutMs'>): Promise<void> {
  await app.listen();
  limitGrpcSessions(app.unwrap<Server>(), settings.handshakeTimeoutMs);
}
