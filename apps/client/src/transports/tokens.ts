/** Nest injection tokens of the client's transports and gRPC client. */
export const JSON_TRANSPORT = Symbol('JSON_TRANSPORT');
export const GRPC_TRANSPORT = Symbol('GRPC_TRANSPORT');
export const JSON_H2_TRANSPORT = Symbol('JSON_H2_TRANSPORT');
export const PROTO_H1_TRANSPORT = Symbol('PROTO_H1_TRANSPORT');
export const CONNECT_TRANSPORTS = Symbol('CONNECT_TRANSPORTS');
export const SAMPLE_GRPC_CLIENT = 'SAMPLE_GRPC_CLIENT';
/** The payload endpoints' transports and verifiers, by payload name (payload-endpoints.provider.ts). */
export const PAYLOAD_ENDPOINTS = Symbol('PAYLOAD_ENDPOINTS');
