import type { Server } from '@grpc/grpc-js';
import { NestFactory } from '@nestjs/core';
import { ServerGrpc, type GrpcOptions } from '@nestjs/microservices';
import { grpcCodecFor, type Settings } from '@bench/config';
import { grpcServerCredentials, limitGrpcSessions, logGrpcTlsStates, serverGrpcOptions } from '@bench/proto';
import { microserviceBindings } from '@bench/transports';
import { AppModule } from './app.module';

/**
 * Nest's gRPC transport with the HTTP/2 session limits (handshake, GOAWAY grace, streams) applied to the
 * grpc-js server as soon as it is bound: Nest binds inside createClient, and offers no other hook
 * (its unwrap() is not supported for gRPC).
 */
class LimitedServerGrpc extends ServerGrpc {
  constructor(
    options: GrpcOptions['options'],
    private readonly handshakeMs: number,
    private readonly secure: boolean,
  ) {
    super(options);
  }

  override async createClient(): Promise<Server> {
    const server = (await super.createClient()) as Server;
    limitGrpcSessions(server, this.handshakeMs);
    if (this.secure) logGrpcTlsStates(server, 'server-b');
    return server;
  }
}

/** server-b as created, not yet serving: listen() starts every transport it connects, close() stops them. */
export interface ServerB {
  listen(): Promise<void>;
  close(): Promise<void>;
}

/**
 * server-b as main.ts runs it, not yet listening: a Nest hybrid application whose one module's controllers
 * serve gRPC (the contract, the variant's codec, its security, the request and session limits) and, when
 * the settings name them (SERVER_B_MICROSERVICES), Nest's microservice transports beside it, each bound
 * by its folder's server.ts (libs/transports). Its HTTP adapter never listens: it is only what a hybrid
 * application is made on (docs/apps.md, "server-b", says why one app rather than a fourth).
 */
export async function createServerB(settings: Settings, url: string, logger: false | ('error' | 'warn')[] = ['error', 'warn']): Promise<ServerB> {
  const { options } = serverGrpcOptions(url, grpcCodecFor(settings.variant));
  const aged: GrpcOptions['options'] = settings.maxConnectionAgeMs > 0 ? { ...options, channelOptions: { ...options.channelOptions, ...maxConnectionAge(settings.maxConnectionAgeMs) } } : options;
  // On SIGTERM, drain rather than drop: grpc-js's tryShutdown sends GOAWAY and lets calls in flight finish
  // (a replica leaving a Service loses no call); Nest's default is forceShutdown, which cancels them.
  aged.gracefulShutdown = true;
  const secured = { ...aged, credentials: grpcServerCredentials(settings.security, settings.handshakeTimeoutMs) };
  const strategy = new LimitedServerGrpc(secured, settings.handshakeTimeoutMs, settings.security.mode !== 'plain');
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

/**
 * grpc-js sends GOAWAY once a connection is `ms` old (± 10 % jitter, grpc-js's own) and lets its calls
 * finish for up to MAX_CONNECTION_AGE_GRACE_MS before closing it: clients reconnect without an error,
 * which is what lets a Service's virtual IP re-balance long-lived HTTP/2 connections.
 */
const MAX_CONNECTION_AGE_GRACE_MS = 30_000;
function maxConnectionAge(ms: number): Record<string, number> {
  return { 'grpc.max_connection_age_ms': ms, 'grpc.max_connection_age_grace_ms': MAX_CONNECTION_AGE_GRACE_MS };
}
