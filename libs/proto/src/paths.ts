import * as path from 'node:path';

/** `proto/` at the workspace root; this file sits two levels below the lib root in src/ and dist/. */
export const PROTO_DIR = path.resolve(__dirname, '../../../proto');
export const SAMPLE_PROTO = path.join(PROTO_DIR, 'sample.proto');
export const HEALTH_PROTO = path.join(PROTO_DIR, 'health.proto');
export const METRICS_PROTO = path.join(PROTO_DIR, 'metrics.proto');
export const PATH_PROTO = path.join(PROTO_DIR, 'path.proto');
export const ECHO_PROTO = path.join(PROTO_DIR, 'echo.proto');
export const LOOKUP_PROTO = path.join(PROTO_DIR, 'lookup.proto');

/** Every proto the apps serve: the blog's contract, health, process metrics, the path probe and the suites' contracts. */
export const SERVED_PROTOS = [SAMPLE_PROTO, HEALTH_PROTO, METRICS_PROTO, PATH_PROTO, ECHO_PROTO, LOOKUP_PROTO] as const;
