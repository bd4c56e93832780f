import type { LookupTransport } from '../callers/lookup-callers';

/** One transport of experiment §2's comparison, as data. */
export interface LatencyTransportRecord {
  id: LookupTransport;
  description: string;
}

export const LATENCY_TRANSPORTS: readonly LatencyTransportRecord[] = Object.freeze([
  { id: 'grpc', description: 'gRPC GetUser on one HTTP/2 channel (server-b)' },
  { id: 'json-keepalive', description: 'GET /lookup/json/:id, HTTP/1.1, one kept-alive connection (server-a)' },
  { id: 'json-new-connection', description: 'GET /lookup/json/:id, HTTP/1.1, a new TCP connection per request (server-a)' },
  { id: 'protobuf-keepalive', description: 'GET /lookup/protobuf/:id (UserReply body), HTTP/1.1, one kept-alive connection (server-a)' },
  { id: 'protobuf-new-connection', description: 'GET /lookup/protobuf/:id (UserReply body), HTTP/1.1, a new TCP connection per request (server-a); the migration’s “before”' },
]);

/** What the migration's authors measured (Ruby, Kubernetes + Envoy, 100 sequential calls). */
export const LATENCY_PUBLISHED = {
  grpc: { meanMs: 10, p95Ms: 14, p99Ms: 15 },
  http: { meanMs: 40, p95Ms: 100 },
} as const;
