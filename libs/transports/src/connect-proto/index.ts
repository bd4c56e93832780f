import type { TransportDefinition } from '../contract';
import { serverAMetrics } from '../common/server-a-metrics';
import { connectProtoClient } from './client';
import { connectProtoOptions } from './options';

/** connect-proto: the Connect protocol with binary (protobuf) bodies, served by the Nest client; server-a's metrics as for json. */
export const CONNECT_PROTO: TransportDefinition = {
  nest: ({ settings, http }) => connectProtoClient(connectProtoOptions(settings), serverAMetrics(http, settings)),
};
