/** Package and service names of our protos, as written in proto/. */
export const SAMPLE_PACKAGE = 'sample';
export const SAMPLE_SERVICE = 'SampleService';
export const HEALTH_PACKAGE = 'grpc.health.v1';
export const HEALTH_SERVICE = 'Health';
export const METRICS_PACKAGE = 'bench.metrics';
export const METRICS_SERVICE = 'ProcessMetrics';
