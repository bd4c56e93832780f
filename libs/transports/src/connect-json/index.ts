import type { TransportDefinition } from '../contract';
import { serverAMetrics } from '../common/server-a-metrics';
import { connectJsonClient } from './client';
import { connectJsonOptions } from './options';

/** connect-json: the Connect protocol with JSON bodies, served by the Nest client; server-a's metrics as for json. */
export const CONNECT_JSON: TransportDefinition = {
  nest: ({ settings, http }) => connectJsonClient(connectJsonOptions(settings), serverAMetrics(http, settings)),
};
