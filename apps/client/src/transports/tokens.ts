/** Nest injection tokens of the client's transports and gRPC client. */
export const CLIENT_TRANSPORTS = Symbol('CLIENT_TRANSPORTS');
export const SAMPLE_GRPC_CLIENT = 'SAMPLE_GRPC_CLIENT';
/** The payload endpoints' transports and verifiers, by payload name (payload-endpoints.provider.ts). */
export const PAYLOAD_ENDPOINTS = Symbol('PAYLOAD_ENDPOINTS');
