export { PROTO_DIR, SAMPLE_PROTO, HEALTH_PROTO, METRICS_PROTO, PATH_PROTO, ECHO_PROTO, LOOKUP_PROTO, SERVED_PROTOS } from './paths';
export { PROTO_LOADER_OPTIONS, PROTO_LOADER_SETTINGS } from './loader-options';
export { sampleGrpcOptions, MAX_MESSAGE_BYTES } from './grpc-options';
export {
  SAMPLE_PACKAGE,
  SAMPLE_SERVICE,
  HEALTH_PACKAGE,
  HEALTH_SERVICE,
  METRICS_PACKAGE,
  METRICS_SERVICE,
  PATH_PACKAGE,
  PATH_SERVICE,
  ECHO_PACKAGE,
  ECHO_SERVICE,
  LOOKUP_PACKAGE,
  LOOKUP_SERVICE,
} from './names';
export { samplePackageDefinition, type CodecChoice } from './package-definition';
export { PAYLOAD_PROTOS, PAYLOAD_PACKAGES } from './payload-protos';
export { getSamplesCodec, type GetSamplesMethod } from './codec';
export { observeSampleCodec, type CodecObserver } from './codec-observer';
export type * from './types';
export { malformedReason } from './malformed';
export { encodeSamplesFast, decodeSamplesFast } from './fast-codec';
export { echoCodec, lookupCodec, PROTOBUF_MEDIA_TYPE, type EchoUnaryMethod, type GetUserMethod } from './body-codec';
