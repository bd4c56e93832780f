import type { GrpcOptions } from '@nestjs/microservices';
import { grpcChannelOptionsFor, grpcCodecFor, type Settings } from '@bench/config';
import { grpcChannelCredentials, sampleGrpcOptions } from '@bench/proto';

/** The client's gRPC options for its variant: the shared contract, its codec, its channel options (tunings) and its security. */
export function clientGrpcOptions(settings: Settings, channelOptions: Record<string, number> = {}): GrpcOptions {
  const base = sampleGrpcOptions(settings.serverBUrl, grpcCodecFor(settings.variant));
  const credentials = grpcChannelCredentials(settings.security);
  return { ...base, options: { ...base.options, credentials, channelOptions: { ...grpcChannelOptionsFor(settings.variant), ...channelOptions } } };
}
