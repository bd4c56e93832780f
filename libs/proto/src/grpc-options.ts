import { Transport, type GrpcOptions } from '@nestjs/microservices';
import { ECHO_PACKAGE, HEALTH_PACKAGE, LOOKUP_PACKAGE, METRICS_PACKAGE, PATH_PACKAGE, SAMPLE_PACKAGE } from './names';
import { samplePackageDefinition } from './package-definition';
import type { CodecChoice } from './samples-codecs';
import { PAYLOAD_PACKAGES } from './payload-protos';

/**
 * Largest gRPC message either side accepts or sends. grpc-js defaults to 4 MiB received; the blog's
 * 1,000,000-row reply is ~170 MB, so (like the blog, which used 7 GiB) both ends raise it. 2^31-1 is
 * the largest value every gRPC implementation accepts as a 32-bit limit.
 */
export const MAX_MESSAGE_BYTES = 2_147_483_647;

/**
 * The one Nest gRPC options object, used by server-b to listen and by the client to connect
 * (as in Nest's sample/04-grpc). Only the address differs between the two ends.
 */
export function sampleGrpcOptions(url: string, codec: CodecChoice = 'proto-loader'): GrpcOptions {
  return {
    transport: Transport.GRPC,
    options: {
      url,
      package: [SAMPLE_PACKAGE, HEALTH_PACKAGE, METRICS_PACKAGE, PATH_PACKAGE, ECHO_PACKAGE, LOOKUP_PACKAGE, ...PAYLOAD_PACKAGES],
      packageDefinition: samplePackageDefinition(codec),
      maxSendMessageLength: MAX_MESSAGE_BYTES,
      maxReceiveMessageLength: MAX_MESSAGE_BYTES,
    },
  };
}
