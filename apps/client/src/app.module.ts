import { HttpModule } from '@nestjs/axios';
import { Module, type DynamicModule } from '@nestjs/common';
import { ClientsModule } from '@nestjs/microservices';
import { CONTROL_ACCESS, SETTINGS, type ControlAccess, type Settings } from '@bench/config';
import { clientGrpcOptions, httpAgentFor, httpsAgentFor } from '@bench/transports';
import { BenchController } from './bench.controller';
import { CASE_RUNNER_PROVIDER } from './case-runner.provider';
import { ClientController } from './client.controller';
import { ErrorsFilter } from './errors.filter';
import { HealthController } from './health.controller';
import { PAYLOAD_ENDPOINTS_PROVIDER } from './payload-endpoints.provider';
import { CLIENT_TRANSPORTS_PROVIDER } from './transports/client-transports.provider';
import { SAMPLE_GRPC_CLIENT } from './transports/tokens';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ControlTokenGuard } from './control-token.guard';

/** No token: the control API as a client bound to loopback without BENCH_TOKEN serves it (tests, local runs). */
const OPEN_TO_THIS_MACHINE: ControlAccess = { token: null, describe: 'control API open (no token)' };

@Module({})
export class AppModule {
  static register(settings: Settings, access: ControlAccess = OPEN_TO_THIS_MACHINE): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // Under TLS every axios call (the blog's JSON, readiness, metrics) trusts the run's CA through this agent.
        // In cleartext they go through Node's global agent, or one looking names up through the process's cache (cached-lookup).
        HttpModule.register({ httpsAgent: httpsAgentFor(settings), httpAgent: httpAgentFor(settings) }),
        ClientsModule.register([{ name: SAMPLE_GRPC_CLIENT, ...clientGrpcOptions(settings) }]),
      ],
      controllers: [ClientController, BenchController, HealthController],
      providers: [
        { provide: SETTINGS, useValue: settings },
        { provide: CONTROL_ACCESS, useValue: access },
        { provide: APP_GUARD, useClass: ControlTokenGuard },
        // Every registered transport (libs/transports' registry), made from these settings and Nest's clients.
        CLIENT_TRANSPORTS_PROVIDER,
        PAYLOAD_ENDPOINTS_PROVIDER,
        { provide: APP_FILTER, useClass: ErrorsFilter },
        CASE_RUNNER_PROVIDER,
      ],
    };
  }
}
