import { Module, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { SETTINGS, type Settings } from '@bench/config';
import { EchoController } from './echo.controller';
import { HealthController } from './health.controller';
import { LookupController } from './lookup.controller';
import { MetricsController } from './metrics.controller';
import { SamplesController } from './samples.controller';
import { timedJson } from './timed-json.middleware';
import { OrdersController } from './orders.controller';

@Module({})
export class AppModule implements NestModule {
  static register(settings: Settings): DynamicModule {
    return {
      module: AppModule,
      controllers: [SamplesController, EchoController, LookupController, HealthController, MetricsController, OrdersController],
      providers: [{ provide: SETTINGS, useValue: settings }],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(timedJson).forRoutes('*');
  }
}
