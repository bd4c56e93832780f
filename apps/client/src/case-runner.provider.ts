import type { Provider } from '@nestjs/common';
import { CaseRunner, type RowTransport } from '@bench/harness';
import { GRPC_TRANSPORT, JSON_TRANSPORT } from './transports/tokens';

/** The shared case runner (libs/harness), fed with this client's Nest transports. */
export const CASE_RUNNER_PROVIDER: Provider = {
  provide: CaseRunner,
  useFactory: (json: RowTransport, grpc: RowTransport) => new CaseRunner({ json, grpc }),
  inject: [JSON_TRANSPORT, GRPC_TRANSPORT],
};
