export { PROTO_DIR, SAMPLE_PROTO, HEALTH_PROTO, METRICS_PROTO, SERVED_PROTOS } from './paths';
export { PROTO_LOADER_OPTIONS, PROTO_LOADER_SETTINGS } from './loader-options';
export { sampleGrpcOptions, MAX_MESSAGE_BYTES } from './grpc-options';
export { SAMPLE_PACKAGE, SAMPLE_SERVICE, HEALTH_PACKAGE, HEALTH_SERVICE, METRICS_PACKAGE, METRICS_SERVICE } from './names';
export { samplePackageDefinition, type CodecChoice } from './package-definition';
export { getSamplesCodec, type GetSamplesMethod } from './codec';
export { observeSampleCodec, type CodecObserver } from './codec-observer';
export type * from './types';
export { malformedReason } from './malformed';
