import { HttpService } from '@nestjs/axios';
import type { OnModuleDestroy, Provider } from '@nestjs/common';
import type { ClientGrpc } from '@nestjs/microservices';
import { SETTINGS, type Settings } from '@bench/config';
import { closeTransports, nestTransports, type Transports } from '@bench/transports';
import { CLIENT_TRANSPORTS, SAMPLE_GRPC_CLIENT } from './tokens';

/** Every registered transport (libs/transports), made once for the app and closed when Nest shuts it down. */
export class ClientTransports implements OnModuleDestroy {
  constructor(readonly byName: Transports) {}

  onModuleDestroy(): Promise<void> {
    return closeTransports(this.byName);
  }
}

export const CLIENT_TRANSPORTS_PROVIDER: Provider = {
  provide: CLIENT_TRANSPORTS,
  useFactory: (settings: Settings, http: HttpService, grpc: ClientGrpc) => new ClientTransports(nestTransports({ settings, http, grpc })),
  inject: [SETTINGS, HttpService, SAMPLE_GRPC_CLIENT],
};
