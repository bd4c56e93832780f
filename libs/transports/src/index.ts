// The one transport contract (contract.ts), a folder per transport with the same files (index.ts: its
// registration; client.ts; server.ts: its server binding, what a server needs to serve it; options.ts:
// what the variant's tunings make of it; bare.ts and caller.ts where the bare client or a suite calls
// it), what several share (common/), and the registry (registry.ts) that names them all.
// docs/extending.md: adding one.
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
  microserviceCaller,
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
export type { GrpcTarget } from './grpc/channel';
export { grpcBidiCaller, type StreamCaller } from './grpc/stream-caller';
export { jsonCaller } from './json/caller';
export { protobufCaller } from './proto-h1/caller';
export { httpCaller } from './common/http-caller';
export { ReplyMeter } from './common/reply-meter';
export { cachingLookup } from './common/cached-lookup';
export { httpAgentFor } from './common/client-lookup';
export { callerTls, httpsAgentFor } from './common/client-tls';
// The server bindings, used by server-a, server-b and apps/bare.
export { JSON_ROWS_CONTROLLER, JSON_ROWS_PATH, JSON_MEDIA_TYPE, jsonRowsReply, type JsonRowsReply, type JsonRowsFraming } from './json/server';
export { jsonH2ListenerOptions } from './json-h2/server';
export { PROTOBUF_ROWS_ROUTE, protobufRowsBody } from './proto-h1/server';
export { grpcServerStrategy, addSampleService } from './grpc/server';
export { CONNECT_JSON_SERVER } from './connect-json/server';
export { CONNECT_PROTO_SERVER } from './connect-proto/server';
export { CONNECT_GRPC_SERVER } from './connect-grpc/server';
export { connectSampleRoutes, connectServing, type ConnectBinding, type ConnectProtocol } from './common/connect-server';
export { listenerTls } from './common/server-tls';
export { rowCountOf } from './common/row-count';
