import * as grpc from '@grpc/grpc-js';
import type { SecuritySettings } from '@bench/config';
import { ECHO_PACKAGE, ECHO_SERVICE, grpcChannelCredentials, LOOKUP_PACKAGE, LOOKUP_SERVICE } from '@bench/proto';
import { grpcServiceClient } from './services';

/** The suites' message services on server-b: the echo experiment's and the lookup experiment's. */
export type GrpcService = 'echo' | 'lookup';

const SERVICE_PATHS: Readonly<Record<GrpcService, string>> = { echo: `${ECHO_PACKAGE}.${ECHO_SERVICE}`, lookup: `${LOOKUP_PACKAGE}.${LOOKUP_SERVICE}` };

/** Where a suite's gRPC caller dials server-b, and what its channel is wrapped in (plain, or TLS with the run's CA). */
export interface GrpcTarget {
  address: string;
  security: SecuritySettings;
}

/**
 * A client on a channel of its own: grpc-js shares subchannels (TCP connections) between clients of
 * one process unless told not to, and each transport must pay for, and own, its connection.
 */
export function grpcClient(service: GrpcService, target: GrpcTarget): grpc.Client {
  return new (grpcServiceClient(SERVICE_PATHS[service]))(target.address, grpcChannelCredentials(target.security), { 'grpc.use_local_subchannel_pool': 1 });
}

/** Waits until the channel is connected, so connection set-up is never inside a timed call. */
export function connected(client: grpc.Client, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) =>
    client.waitForReady(Date.now() + timeoutMs, (error) => (error ? reject(new Error(`gRPC channel not ready: ${error.message}`)) : resolve())),
  );
}

export function statusError(error: grpc.ServiceError): Error {
  return new Error(`gRPC ${grpc.status[error.code] ?? error.code}: ${error.details}`);
}
