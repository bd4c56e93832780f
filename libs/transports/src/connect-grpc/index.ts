import type { TransportDefinition } from '../contract';
import { serverAMetrics } from '../common/server-a-metrics';
import { connectGrpcClient } from './client';
import { connectGrpcOptions } from './options';

/** connect-grpc: the gRPC protocol (grpc-js's wire, connect-es's library), served by the Nest client; server-a's metrics as for json. */
export const CONNECT_GRPC: TransportDefinition = {
  nest: ({ settings, http }) => connectGrpcClient(connectGrpcOptions(settings), serverAMetrics(http, settings)),
};
