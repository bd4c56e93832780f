import * as grpc from '@grpc/grpc-js';
import { samplePackageDefinition } from '@bench/proto';

/** A generated client class of one service of the package definition. */
export type GrpcServiceClient<C extends grpc.Client = grpc.Client> = new (address: string, credentials: grpc.ChannelCredentials, options?: grpc.ChannelOptions) => C;

let loaded: grpc.GrpcObject | undefined;

/**
 * The client class of `path` (`sample.SampleService`, `grpc.health.v1.Health`, …) from the process's one
 * package definition (libs/proto's loader options): the one place a plain grpc-js client is loaded and
 * cast, for every caller of server-b outside Nest (the bare client, its readiness, the suites' callers).
 */
export function grpcServiceClient<C extends grpc.Client = grpc.Client>(path: string): GrpcServiceClient<C> {
  loaded ??= grpc.loadPackageDefinition(samplePackageDefinition());
  const found = path.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], loaded);
  if (typeof found !== 'function') throw new Error(`no gRPC service ${path} in the package definition`);
  return found as unknown as GrpcServiceClient<C>;
}
