import { Inject, Module, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { isTuned, SETTINGS, type Settings } from '@bench/config';
import { EchoController } from './echo.controller';
import { HealthController } from './health.controller';
import { LookupController } from './lookup.controller';
import { MetricsController } from './metrics.controller';
import { SamplesController } from './samples.controller';
import { timedJson } from './timed-json.middleware';
import { OrdersController } from './orders.controller';
import { PathController } from './path.controller';

@Module({})
export class AppModule implements NestModule {
  static register(settings: Settings): DynamicModule {
    return {
      module: AppModule,
      controllers: [SamplesController, EchoController, LookupController, HealthController, MetricsController, OrdersController, PathController],
      providers: [{ provide: SETTINGS, useValue: settings }],
    };
  }

  constructor(@Inject(SETTINGS) private readonly settings: Settings) {}

  /**
   * Express times its JSON replies in a middleware; Fastify times them in its reply serializer
   * (http-platform.ts). A middleware on Fastify would only cost time: Nest then routes every request
   * through @fastify/middie and its path matching, for a res.json Fastify never calls.
   */
  configure(consumer: MiddlewareConsumer): void {
    if (!isTuned(this.settings.variant, 'fastify-adapter')) consumer.apply(timedJson).forRoutes('*');
  }
}
