import { HttpModule } from '@nestjs/axios';
import { Module, type DynamicModule } from '@nestjs/common';
import { ClientsModule } from '@nestjs/microservices';
import { grpcCodecFor, SETTINGS, type Settings } from '@bench/config';
import { sampleGrpcOptions } from '@bench/proto';
import { BenchController } from './bench.controller';
import { CASE_RUNNER_PROVIDER } from './case-runner.provider';
import { ClientController } from './client.controller';
import { ErrorsFilter } from './errors.filter';
import { HealthController } from './health.controller';
import { GrpcTransport } from './transports/grpc.transport';
import { JsonTransport } from './transports/json.transport';
import { GRPC_TRANSPORT, JSON_TRANSPORT, SAMPLE_GRPC_CLIENT } from './transports/tokens';
import { APP_FILTER } from '@nestjs/core';

@Module({})
export class AppModule {
  static register(settings: Settings): DynamicModule {
    return {
      module: AppModule,
      imports: [
        HttpModule,
        ClientsModule.register([{ name: SAMPLE_GRPC_CLIENT, ...sampleGrpcOptions(settings.serverBUrl, grpcCodecFor(settings.variant)) }]),
      ],
      controllers: [ClientController, BenchController, HealthController],
      providers: [
        { provide: SETTINGS, useValue: settings },
        { provide: JSON_TRANSPORT, useClass: JsonTransport },
        { provide: GRPC_TRANSPORT, useClass: GrpcTransport },
        { provide: APP_FILTER, useClass: ErrorsFilter },
        CASE_RUNNER_PROVIDER,
      ],
    };
  }
}
