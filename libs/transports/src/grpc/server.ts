import * as grpc from '@grpc/grpc-js';
import { ServerGrpc, type GrpcOptions } from '@nestjs/microservices';
import { grpcCodecFor, type Settings } from '@bench/config';
import { encodeSamplesSliced, grpcCallSignalFor, grpcServerCredentials, limitGrpcSessions, logGrpcTlsStates, malformedReason, serverGrpcOptions, type GetSamplesParam__Output } from '@bench/proto';
import { noteAbandoned, type RowStreamPhases } from '@bench/samples';
import { rowCountOf } from '../common/row-count';

// grpc's server binding: what a server needs to serve the blog's GetSamples over gRPC — Nest's gRPC
// microservice as server-b runs it (grpcServerStrategy), and the handler a plain grpc-js server
// registers (addSampleService: apps/bare's server-b).

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

  override async createClient(): Promise<grpc.Server> {
    const server = (await super.createClient()) as grpc.Server;
    limitGrpcSessions(server, this.handshakeMs);
    if (this.secure) logGrpcTlsStates(server, 'server-b');
    return server;
  }
}

/**
 * server-b's Nest microservice strategy at `url`: the contract, the variant's codec, its security, the
 * request and session limits, the maximum connection age when the settings give one, and a graceful shutdown.
 */
export function grpcServerStrategy(settings: Settings, url: string): ServerGrpc {
  const { options } = serverGrpcOptions(url, grpcCodecFor(settings.variant));
  const channelOptions = { ...options.channelOptions, ...(settings.maxConnectionAgeMs > 0 ? maxConnectionAge(settings.maxConnectionAgeMs) : {}), ...(settings.grpcMinPingIntervalMs > 0 ? permitPings(settings.grpcMinPingIntervalMs) : {}) };
  const aged: GrpcOptions['options'] = { ...options, channelOptions };
  // On SIGTERM, drain rather than drop: grpc-js's tryShutdown sends GOAWAY and lets calls in flight finish
  // (a replica leaving a Service loses no call); Nest's default is forceShutdown, which cancels them.
  aged.gracefulShutdown = true;
  const secured = { ...aged, credentials: grpcServerCredentials(settings.security, settings.handshakeTimeoutMs) };
  return new LimitedServerGrpc(secured, settings.handshakeTimeoutMs, settings.security.mode !== 'plain');
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

/**
 * Clients may ping every `ms`, also without calls: what a server enforcing ping limits (C-core, Go)
 * needs before it answers frequent keep-alive pings without GOAWAY too_many_pings; grpc-js 1.14's server
 * enforces none and keeps them as stated (bench:service's grpc-keepalive recovery tuning sets it).
 */
function permitPings(ms: number): Record<string, number> {
  return { 'grpc.http2.min_ping_interval_without_data_ms': ms, 'grpc.keepalive_permit_without_calls': 1 };
}

/**
 * sample.SampleService's GetSamples on a plain grpc-js server (`service`: its definition from the loaded
 * package), as server-b serves it: a malformed request or a bad count is INVALID_ARGUMENT; the rows are
 * built and encoded a slice at a time, stopped by the call's deadline or its cancellation.
 */
export function addSampleService(server: grpc.Server, service: grpc.ServiceDefinition, settings: Pick<Settings, 'maxRows'>, phases: RowStreamPhases): void {
  server.addService(service, {
    GetSamples: (call: grpc.ServerUnaryCall<GetSamplesParam__Output, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const malformed = malformedReason(call.request);
      if (malformed) {
        return callback({ code: grpc.status.INVALID_ARGUMENT, details: `request is not a valid GetSamplesParam message: ${malformed} [request: type]` });
      }
      const count = rowCountOf(call.request.count, settings);
      if (!count.ok) {
        return callback({ code: grpc.status.INVALID_ARGUMENT, details: `${count.error.message} [count: ${count.error.rule}]` });
      }
      const signal = grpcCallSignalFor(count.value, call);
      encodeSamplesSliced(count.value, signal, 'proto-loader', phases).then(
        (bytes) => callback(null, bytes),
        (error: unknown) => {
          if (!signal.aborted) return callback({ code: grpc.status.INTERNAL, details: String(error) });
          noteAbandoned(`server-b GetSamples reply of ${count.value} rows`, signal.reason);
          callback({ code: grpc.status.CANCELLED, details: (signal.reason as Error).message });
        },
      );
    },
  });
}
