import { Module, type DynamicModule } from '@nestjs/common';
import { SETTINGS, type Settings } from '@bench/config';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { SamplesController } from './samples.controller';

@Module({})
export class AppModule {
  static register(settings: Settings): DynamicModule {
    return {
      module: AppModule,
      controllers: [SamplesController, HealthController, MetricsController],
      providers: [{ provide: SETTINGS, useValue: settings }],
    };
  }
}
