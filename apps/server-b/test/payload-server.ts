import * as grpc from '@grpc/grpc-js';
import type { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DEFAULT_SETTINGS } from '@bench/config';
import type { Payload } from '@bench/payloads';
import { samplePackageDefinition, sampleGrpcOptions } from '@bench/proto';
import { freePort } from '@bench/testing';
import { AppModule } from '../src/app.module';

type Callback = (error: grpc.ServiceError | null, reply?: unknown) => void;
export type UnaryClient = grpc.Client & Record<string, (request: unknown, callback: Callback) => void>;

export interface StartedServerB {
  /** A plain grpc-js client of the payload's service, from the same contract (what grpcurl or another language would use). */
  client: UnaryClient;
  close(): Promise<void>;
}

/** server-b on a free port with `maxRows`, and a client of one payload endpoint's service (the generated tests' set-up). */
export async function startServerB(payload: Payload, maxRows: number): Promise<StartedServerB> {
  const url = `127.0.0.1:${await freePort()}`;
  const app: INestMicroservice = await NestFactory.createMicroservice(AppModule.register({ ...DEFAULT_SETTINGS, maxRows }), {
    ...sampleGrpcOptions(url),
    logger: false,
  });
  await app.listen();
  const { protoPackage, service } = payload.names;
  const loaded = grpc.loadPackageDefinition(samplePackageDefinition()) as Record<string, unknown>;
  const scope = protoPackage.split('.').reduce((node, key) => (node as Record<string, unknown>)[key], loaded as unknown);
  const Service = (scope as Record<string, typeof grpc.Client>)[service];
  const client = new Service(url, grpc.credentials.createInsecure()) as UnaryClient;
  return {
    client,
    close: async () => {
      client.close();
      await app.close();
    },
  };
}

export function callUnary(client: UnaryClient, method: string, request: unknown): Promise<{ error: grpc.ServiceError | null; reply?: unknown }> {
  return new Promise((resolve) => client[method](request, (error, reply) => resolve({ error, reply })));
}
