import type { TransportDefinition } from '../contract';
import { BareGrpcTransport } from './bare';
import { GrpcTransport } from './client';

/** grpc: the blog's gRPC to server-b; the Nest client's ClientGrpc (or the lean unary client), the bare client's grpc-js. */
export const GRPC_TRANSPORT: TransportDefinition = {
  nest: ({ settings, grpc }) => new GrpcTransport(grpc, settings),
  bare: (settings) => new BareGrpcTransport(settings),
};
