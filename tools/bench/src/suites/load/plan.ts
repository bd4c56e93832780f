/** The load suite's sweep, as data: who is loaded, how many calls in flight, how many rows per call. */
export type LoadTarget = 'http-json' | 'grpc';

export const LOAD_TARGETS: readonly { id: LoadTarget; description: string }[] = Object.freeze([
  { id: 'http-json', description: 'GET /server-a/:rows on server-a, driven by autocannon (one HTTP/1.1 connection per concurrent call)' },
  { id: 'grpc', description: 'GetSamples on server-b, driven by our closed loop of N concurrent calls on one channel (grpc-js)' },
]);

export const LOAD_CONCURRENCY: readonly number[] = Object.freeze([1, 10, 100]);
export const LOAD_ROWS: readonly number[] = Object.freeze([1, 100]);

/** A load generator using at least this share of one core for its own work is probably the bottleneck. */
export const GENERATOR_BOUND_SHARE = 0.9;
