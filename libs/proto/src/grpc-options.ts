import { Transport, type GrpcOptions } from '@nestjs/microservices';
import { CONNECTION_LIMITS, REPLY_LIMIT, REQUEST_LIMITS } from '@bench/config';
import { ECHO_PACKAGE, HEALTH_PACKAGE, LOOKUP_PACKAGE, METRICS_PACKAGE, PATH_PACKAGE, SAMPLE_PACKAGE } from './names';
import { samplePackageDefinition } from './package-definition';
import type { CodecChoice } from './samples-codecs';
import { PAYLOAD_PACKAGES } from './payload-protos';

/**
 * Largest gRPC reply either side sends or the client accepts (REPLY_LIMIT). grpc-js defaults to 4 MiB
 * received; the blog's 1,000,000-row reply is 156 MB, so (like the blog, which used 7 GiB) both ends raise it.
 */
export const MAX_MESSAGE_BYTES = REPLY_LIMIT.bytes;

/**
 * server-b's grpc-js server options (Nest's or bare): replies up to REPLY_LIMIT, requests up to
 * REQUEST_LIMITS.grpc, which grpc-js also applies to a gzip or deflate message as it inflates it (it
 * stops inflating past the limit: RESOURCE_EXHAUSTED), and idle sessions closed after
 * CONNECTION_LIMITS.http2Idle. The handshake limit is applied once bound (limitGrpcSessions).
 */
export const GRPC_SERVER_OPTIONS = Object.freeze({
  'grpc.max_send_message_length': REPLY_LIMIT.bytes,
  'grpc.max_receive_message_length': REQUEST_LIMITS.grpc.bytes,
  'grpc.max_connection_idle_ms': CONNECTION_LIMITS.http2Idle.ms,
});

/**
 * The one Nest gRPC options object, used by the client to connect (as in Nest's sample/04-grpc) and,
 * through serverGrpcOptions, by server-b to listen. Only the address and the receive limit differ.
 */
export function sampleGrpcOptions(url: string, codec: CodecChoice = 'proto-loader', maxReceiveBytes: number = REPLY_LIMIT.bytes): GrpcOptions {
  return {
    transport: Transport.GRPC,
    options: {
      url,
      package: [SAMPLE_PACKAGE, HEALTH_PACKAGE, METRICS_PACKAGE, PATH_PACKAGE, ECHO_PACKAGE, LOOKUP_PACKAGE, ...PAYLOAD_PACKAGES],
      packageDefinition: samplePackageDefinition(codec),
      maxSendMessageLength: REPLY_LIMIT.bytes,
      maxReceiveMessageLength: maxReceiveBytes,
    },
  };
}

/** server-b's Nest gRPC options: the shared contract with GRPC_SERVER_OPTIONS' limits. */
export function serverGrpcOptions(url: string, codec: CodecChoice = 'proto-loader'): GrpcOptions {
  const base = sampleGrpcOptions(url, codec, REQUEST_LIMITS.grpc.bytes);
  return { ...base, options: { ...base.options, channelOptions: { 'grpc.max_connection_idle_ms': CONNECTION_LIMITS.http2Idle.ms } } };
}
