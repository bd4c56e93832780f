// The one transport contract (contract.ts), a folder per transport with the same files (index.ts: its
// registration; client.ts; options.ts: what the variant's tunings make of it; bare.ts where the bare
// client serves it), and the registry (registry.ts) that names them all. docs/extending.md: adding one.
export type { Connection, Http2Windows, NestClientContext, ReplyTally, RowTransport, TransportDefinition } from './contract';
export { TRANSPORT_NAMES, BLOG_TRANSPORT_NAMES, nestTransports, bareTransports, closeTransports, type TransportName, type Transports } from './registry';
export { JsonTransport } from './json/client';
export { jsonOptions } from './json/options';
export { defaultAgent, get } from './json/bare';
export { GrpcTransport } from './grpc/client';
export { clientGrpcOptions } from './grpc/options';
export { grpcServiceClient, type GrpcServiceClient } from './grpc/services';
export { GrpcUnaryClient } from './grpc/lean-unary';
export { ReplyMeter } from './shared/reply-meter';
export { cachingLookup, LOOKUP_CACHE_TTL_MS } from './shared/cached-lookup';
export { httpAgentFor } from './shared/client-lookup';
export { httpsAgentFor } from './shared/client-tls';
