import type { Provider } from '@nestjs/common';
import { CallRunner, type PayloadEndpoint } from '@bench/harness';
import type { ClientTransports } from './transports/client-transports.provider';
import { CLIENT_TRANSPORTS, PAYLOAD_ENDPOINTS } from './transports/tokens';

/** The shared case runner (libs/harness), fed with this client's transports and payload endpoints. */
export const CASE_RUNNER_PROVIDER: Provider = {
  provide: CallRunner,
  useFactory: (payloads: Record<string, PayloadEndpoint>, transports: ClientTransports) => new CallRunner(transports.byName, payloads),
  inject: [PAYLOAD_ENDPOINTS, CLIENT_TRANSPORTS],
};
