import { Module, type DynamicModule } from '@nestjs/common';
import { SETTINGS, type Settings } from '@bench/config';
import { EchoController } from './echo.controller';
import { HealthController } from './health.controller';
import { LookupController } from './lookup.controller';
import { MetricsController } from './metrics.controller';
import { PathController } from './path.controller';
import { SamplesController } from './samples.controller';
import { OrdersController } from './orders.controller';
import { microserviceSamplesController } from './microservice-samples.controller';

@Module({})
export class AppModule {
  static register(settings: Settings): DynamicModule {
    return {
      module: AppModule,
      controllers: [SamplesController, EchoController, LookupController, HealthController, MetricsController, PathController, OrdersController, microserviceSamplesController(settings)],
      providers: [{ provide: SETTINGS, useValue: settings }],
    };
  }
}
