import { Inject, Module, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { isTuned, SETTINGS, type Settings } from '@bench/config';
import { ClientErrorsFilter } from './client-errors.filter';
import { EchoController } from './echo.controller';
import { HealthController } from './health.controller';
import { LookupController } from './lookup.controller';
import { MetricsController } from './metrics.controller';
import { SamplesController } from './samples.controller';
import { timedJson } from './timed-json.middleware';
import { OrdersController } from './orders.controller';
import { PathController } from './path.controller';

export type HttpPlatform = 'express' | 'fastify';
const HTTP_PLATFORM = Symbol('HTTP_PLATFORM');

@Module({})
export class AppModule implements NestModule {
  /** `platform`: the HTTP adapter the app runs on (http-platform.ts); Express unless the variant tunes it to Fastify. */
  static register(settings: Settings, platform: HttpPlatform = isTuned(settings.variant, 'fastify-adapter') ? 'fastify' : 'express'): DynamicModule {
    return {
      module: AppModule,
      controllers: [SamplesController, EchoController, LookupController, HealthController, MetricsController, OrdersController, PathController],
      providers: [
        { provide: SETTINGS, useValue: settings },
        { provide: HTTP_PLATFORM, useValue: platform },
        { provide: APP_FILTER, useClass: ClientErrorsFilter },
      ],
    };
  }

  constructor(@Inject(HTTP_PLATFORM) private readonly platform: HttpPlatform) {}

  /**
   * Express times its JSON replies in a middleware; Fastify times them in its reply serializer
   * (http-platform.ts). A middleware on Fastify would only cost time: Nest then routes every request
   * through @fastify/middie and its path matching, for a res.json Fastify never calls.
   */
  configure(consumer: MiddlewareConsumer): void {
    if (this.platform === 'express') consumer.apply(timedJson).forRoutes('*');
  }
}
