import { Controller, Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload, RpcException } from '@nestjs/microservices';
import type { Settings } from '@bench/config';
import { buildRows } from '@bench/samples';
import { readSamplesMessage, samplesPattern } from '../src/common/samples-pattern';
import { microserviceBindings } from '../src/registry';

/** A stand-in for server-b's microservice samples controller: the same pattern, the same checks, the blog's rows. */
function standInModule(settings: Settings): DynamicModule {
  @Controller()
  class StandInSamplesController {
    @MessagePattern(samplesPattern(settings))
    getSamples(@Payload() message: unknown): { samples: unknown[] } {
      const read = readSamplesMessage(message, 1_000_000);
      if (!read.ok) throw new RpcException({ code: 3, message: read.error.message });
      return { samples: buildRows(read.value.count) };
    }
  }
  @Module({})
  class StandInModule {}
  return { module: StandInModule, controllers: [StandInSamplesController] };
}

/**
 * A Nest hybrid application serving SAMPLES_PATTERN over the microservice transports `settings` names,
 * each bound by its folder's server.ts as server-b binds it: the real Nest transport on loopback (and
 * the real broker where it has one), only the controller a stand-in.
 */
export async function startNestStandIn(settings: Settings): Promise<{ close(): Promise<void> }> {
  const app = await NestFactory.create(standInModule(settings), { logger: false });
  for (const { options } of microserviceBindings(settings)) app.connectMicroservice(options);
  await app.startAllMicroservices();
  await app.init();
  return { close: () => app.close() };
}
