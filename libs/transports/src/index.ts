// The one transport contract (contract.ts), a folder per transport with the same files (index.ts: its
// registration; client.ts; options.ts: what the variant's tunings make of it; bare.ts and caller.ts
// where the bare client or a suite calls it), what several share (common/), and the registry
// (registry.ts) that names them all. docs/extending.md: adding one.
export type { Caller, Connection, Http2Windows, NestClientContext, ReplyTally, RowTransport, TransportDefinition } from './contract';
export {
  TRANSPORT_NAMES,
  BLOG_TRANSPORT_NAMES,
  MICROSERVICE_TRANSPORT_NAMES,
  nestTransports,
  bareTransports,
  closeTransports,
  microserviceBindings,
  brokersOf,
  type TransportName,
  type Transports,
} from './registry';
export { SAMPLES_PATTERN, samplesPattern, readSamplesMessage, type SamplesMessage } from './common/samples-pattern';
export { JsonTransport } from './json/client';
export { jsonOptions } from './json/options';
export { defaultAgent, get } from './json/bare';
export { GrpcTransport } from './grpc/client';
export { clientGrpcOptions } from './grpc/options';
export { grpcServiceClient } from './grpc/services';
export { GrpcUnaryClient } from './grpc/lean-unary';
export { grpcUnaryCaller } from './grpc/caller';
export { grpcBidiCaller, type StreamCaller } from './grpc/stream-caller';
export { jsonCaller } from './json/caller';
export { protobufCaller } from './proto-h1/caller';
export { httpCaller } from './common/http-caller';
export { ReplyMeter } from './common/reply-meter';
export { cachingLookup } from './common/cached-lookup';
export { httpAgentFor } from './common/client-lookup';
export { httpsAgentFor } from './common/client-tls';
