import type { Provider } from '@nestjs/common';
import { CaseRunner, type PayloadEndpoint, type RowTransport } from '@bench/harness';
import type { ConnectTransports } from './transports/connect.transport';
import { CONNECT_TRANSPORTS, GRPC_TRANSPORT, JSON_H2_TRANSPORT, JSON_TRANSPORT, PAYLOAD_ENDPOINTS, PROTO_H1_TRANSPORT } from './transports/tokens';

/** The shared case runner (libs/harness), fed with this client's Nest transports and payload endpoints. */
export const CASE_RUNNER_PROVIDER: Provider = {
  provide: CaseRunner,
  useFactory: (payloads: Record<string, PayloadEndpoint>, connect: ConnectTransports, json: RowTransport, grpc: RowTransport, jsonH2: RowTransport, protoH1: RowTransport) =>
    new CaseRunner({ json, grpc, 'json-h2': jsonH2, 'proto-h1': protoH1, ...connect.byName }, payloads),
  inject: [PAYLOAD_ENDPOINTS, CONNECT_TRANSPORTS, JSON_TRANSPORT, GRPC_TRANSPORT, JSON_H2_TRANSPORT, PROTO_H1_TRANSPORT],
};
