import type { LookupTransport } from '../callers/lookup-callers';

/** One transport of experiment §2's comparison, as data. */
export interface LatencyTransportRecord {
  id: LookupTransport;
  description: string;
  /** Whether each call opens a connection of its own (and, dialling a name, looks it up first). */
  newConnectionPerCall: boolean;
  /** Whether its lookups are cached in the caller (then a new connection costs no lookup once warm). */
  lookupCached?: boolean;
}

export const LATENCY_TRANSPORTS: readonly LatencyTransportRecord[] = Object.freeze([
  { id: 'grpc', description: 'gRPC GetUser on one HTTP/2 channel (server-b)', newConnectionPerCall: false },
  { id: 'json-keepalive', description: 'GET /lookup/json/:id, HTTP/1.1, one kept-alive connection (server-a)', newConnectionPerCall: false },
  { id: 'json-new-connection', description: 'GET /lookup/json/:id, HTTP/1.1, a new TCP connection per request (server-a)', newConnectionPerCall: true },
  { id: 'protobuf-keepalive', description: 'GET /lookup/protobuf/:id (UserReply body), HTTP/1.1, one kept-alive connection (server-a)', newConnectionPerCall: false },
  { id: 'protobuf-new-connection', description: 'GET /lookup/protobuf/:id (UserReply body), HTTP/1.1, a new TCP connection per request (server-a); the migration’s “before”', newConnectionPerCall: true },
  {
    id: 'protobuf-new-connection-cached-lookup',
    description: 'the same, with a caching name lookup (answers kept 30 s) instead of Node’s dns.lookup per connection: the lookup tuning',
    newConnectionPerCall: true,
    lookupCached: true,
  },
]);

/** What the migration's authors measured (Ruby, Kubernetes + Envoy, 100 sequential calls). */
export const LATENCY_PUBLISHED = {
  grpc: { meanMs: 10, p95Ms: 14, p99Ms: 15 },
  http: { meanMs: 40, p95Ms: 100 },
} as const;
