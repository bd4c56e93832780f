/** Package and service names of our protos, as written in proto/. */
export const SAMPLE_PACKAGE = 'sample';
export const SAMPLE_SERVICE = 'SampleService';
export const HEALTH_PACKAGE = 'grpc.health.v1';
export const HEALTH_SERVICE = 'Health';
export const METRICS_PACKAGE = 'bench.metrics';
export const METRICS_SERVICE = 'ProcessMetrics';
export const PATH_PACKAGE = 'bench.path';
export const PATH_SERVICE = 'PathProbe';
export const ECHO_PACKAGE = 'echo';
export const ECHO_SERVICE = 'DataManager';
export const LOOKUP_PACKAGE = 'lookup';
export const LOOKUP_SERVICE = 'UserLookup';

/** Packages whose requests come from users' clients: undecodable bytes there are INVALID_ARGUMENT. */
export const CLIENT_FACING_PACKAGES: readonly string[] = [SAMPLE_PACKAGE, ECHO_PACKAGE, LOOKUP_PACKAGE];
