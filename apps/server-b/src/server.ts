import type { Server } from '@grpc/grpc-js';
import type { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ServerGrpc, type GrpcOptions } from '@nestjs/microservices';
import { grpcCodecFor, type Settings } from '@bench/config';
import { grpcServerCredentials, limitGrpcSessions, logGrpcTlsStates, serverGrpcOptions } from '@bench/proto';
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

/** server-b as main.ts runs it, not yet listening: the contract, the variant's codec, its security, the request and session limits. */
export function createServerB(settings: Settings, url: string, logger: false | ('error' | 'warn')[] = ['error', 'warn']): Promise<INestMicroservice> {
  const { options } = serverGrpcOptions(url, grpcCodecFor(settings.variant));
  const aged: GrpcOptions['options'] = settings.maxConnectionAgeMs > 0 ? { ...options, channelOptions: { ...options.channelOptions, ...maxConnectionAge(settings.maxConnectionAgeMs) } } : options;
  // On SIGTERM, drain rather than drop: grpc-js's tryShutdown sends GOAWAY and lets calls in flight finish
  // (a replica leaving a Service loses no call); Nest's default is forceShutdown, which cancels them.
  aged.gracefulShutdown = true;
  const secured = { ...aged, credentials: grpcServerCredentials(settings.security, settings.handshakeTimeoutMs) };
  const strategy = new LimitedServerGrpc(secured, settings.handshakeTimeoutMs, settings.security.mode !== 'plain');
  return NestFactory.createMicroservice(AppModule.register(settings), { strategy, logger });
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
