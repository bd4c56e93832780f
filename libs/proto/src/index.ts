export { PROTO_DIR, SAMPLE_PROTO, HEALTH_PROTO } from './paths';
export { PROTO_LOADER_OPTIONS, PROTO_LOADER_SETTINGS } from './loader-options';
export {
  sampleGrpcOptions,
  MAX_MESSAGE_BYTES,
  SAMPLE_PACKAGE,
  SAMPLE_SERVICE,
  HEALTH_PACKAGE,
  HEALTH_SERVICE,
} from './grpc-options';
export { samplePackageDefinition } from './package-definition';
export { getSamplesCodec, type GetSamplesMethod } from './codec';
export { grpcReplyMeter, ReplyMeter } from './reply-meter';
export type * from './types';
