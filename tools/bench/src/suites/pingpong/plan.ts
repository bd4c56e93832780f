import type { EchoTransport } from '../callers/echo-callers';

/** Experiment §3b's RPC comparison: gRPC unary and stream against a RESTful JSON POST echo. */
export const PINGPONG_TRANSPORTS: readonly { id: EchoTransport; description: string }[] = Object.freeze([
  { id: 'grpc-unary', description: 'gRPC UnaryTest on one channel (server-b)' },
  { id: 'grpc-bidi', description: 'gRPC BiStreamTest: one stream, one message in flight (server-b)' },
  { id: 'rest-json', description: 'POST /echo/json, HTTP/1.1 keep-alive (server-a)' },
]);

/** Payload sizes as data: the experiment's small (100–1,000 B) and large (10–100 KB) messages. */
export const PINGPONG_PAYLOADS: readonly { id: string; bytes: number }[] = Object.freeze([
  { id: '100 B', bytes: 100 },
  { id: '1 KB', bytes: 1_000 },
  { id: '10 KB', bytes: 10_000 },
  { id: '100 KB', bytes: 100_000 },
]);

export const PINGPONG_PUBLISHED = [
  'Android client (Java), 60 s of ping-pong per cell, HDR histogram: gRPC unary had 5–10× lower latency than a RESTful HTTP JSON POST echo up to the 95th percentile (~2 ms average end-to-end).',
  'Bandwidth: gRPC ~3× better for small payloads (100–1,000 B) and ~2× for large (10–100 KB).',
  'Streaming calls were more than 2× faster than unary.',
];
