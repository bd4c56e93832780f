import type { GrpcOptions } from '@nestjs/microservices';
import { grpcChannelOptionsFor, grpcCodecFor, http2WindowFor, isTuned, type Settings } from '@bench/config';
import { grpcChannelCredentials, SAMPLE_SERVICE, sampleGrpcOptions } from '@bench/proto';
import { lookupFor } from '../common/client-lookup';
import { clientTls, tlsSessionsFor } from '../common/client-tls';
import { GrpcUnaryClient } from './lean-unary';

/** The client's gRPC options for its variant: the shared contract, its codec, its channel options (tunings) and its security. */
export function clientGrpcOptions(settings: Settings, channelOptions: Record<string, number> = {}): GrpcOptions {
  const base = sampleGrpcOptions(settings.serverBUrl, grpcCodecFor(settings.variant));
  const credentials = grpcChannelCredentials(settings.security);
  return { ...base, options: { ...base.options, credentials, channelOptions: { ...grpcChannelOptionsFor(settings.variant), ...channelOptions } } };
}

/** The RPC a GrpcTransport calls, with its streamed twin if it has one, and the reply's list field. */
export interface GrpcRoute {
  service: string;
  method: string;
  streamMethod?: string;
  field: string;
}

/** The blog's GetSamples (and our GetSamplesStream), replying `{ samples: [...] }`. */
export const SAMPLES_GRPC_ROUTE: GrpcRoute = { service: SAMPLE_SERVICE, method: 'getSamples', streamMethod: 'getSamplesStream', field: 'samples' };

/** What a grpc client is made of beside Nest's ClientGrpc (whose channel options clientGrpcOptions sets). */
export interface GrpcTransportOptions {
  route: GrpcRoute;
  /** Tuning lean-grpc-unary: unary calls on node:http2 (lean-unary.ts); null: every call through Nest's ClientGrpc and grpc-js. */
  unary: GrpcUnaryClient | null;
}

/** The variant's grpc options for the blog's rows. */
export function grpcOptions(settings: Settings): GrpcTransportOptions {
  const lean = isTuned(settings.variant, 'lean-grpc-unary');
  return {
    route: SAMPLES_GRPC_ROUTE,
    unary: lean ? new GrpcUnaryClient(settings.serverBUrl, http2WindowFor(settings.variant), clientTls(settings), tlsSessionsFor(settings), lookupFor(settings)) : null,
  };
}
