import type { GrpcOptions } from '@nestjs/microservices';
import { grpcChannelOptionsFor, grpcCodecFor, type Settings } from '@bench/config';
import { sampleGrpcOptions } from '@bench/proto';

/** The client's gRPC options for its variant: the shared contract, its codec and its channel options (tunings). */
export function clientGrpcOptions(settings: Settings, channelOptions: Record<string, number> = {}): GrpcOptions {
  const base = sampleGrpcOptions(settings.serverBUrl, grpcCodecFor(settings.variant));
  return { ...base, options: { ...base.options, channelOptions: { ...grpcChannelOptionsFor(settings.variant), ...channelOptions } } };
}
