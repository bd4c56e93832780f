import type { Provider } from '@nestjs/common';
import { CaseRunner, type PayloadEndpoint, type RowTransport } from '@bench/harness';
import { GRPC_TRANSPORT, JSON_TRANSPORT, PAYLOAD_ENDPOINTS } from './transports/tokens';

/** The shared case runner (libs/harness), fed with this client's Nest transports and payload endpoints. */
export const CASE_RUNNER_PROVIDER: Provider = {
  provide: CaseRunner,
  useFactory: (json: RowTransport, grpc: RowTransport, payloads: Record<string, PayloadEndpoint>) => new CaseRunner({ json, grpc }, payloads),
  inject: [JSON_TRANSPORT, GRPC_TRANSPORT, PAYLOAD_ENDPOINTS],
};
