import * as path from 'node:path';

/** `proto/` at the workspace root; this file sits two levels below the lib root in src/ and dist/. */
export const PROTO_DIR = path.resolve(__dirname, '../../../proto');
export const SAMPLE_PROTO = path.join(PROTO_DIR, 'sample.proto');
export const HEALTH_PROTO = path.join(PROTO_DIR, 'health.proto');
export const METRICS_PROTO = path.join(PROTO_DIR, 'metrics.proto');

/** Every proto the apps serve: the blog's contract plus health and process metrics. */
export const SERVED_PROTOS = [SAMPLE_PROTO, HEALTH_PROTO, METRICS_PROTO] as const;
