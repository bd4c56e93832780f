import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { processSampler, SETTINGS, type Settings } from '@bench/config';
import { SAMPLE_SERVICE, type GetSamplesParam__Output, type Samples } from '@bench/proto';
import { buildRows } from '@bench/samples';
import { orInvalidArgument, parseIntField } from '@bench/validation';

@Controller()
export class SamplesController {
  constructor(@Inject(SETTINGS) private readonly settings: Settings) {}

  /** The blog's RPC: `count` rows as `Samples`, serialized by Nest's gRPC transport (proto-loader). */
  @GrpcMethod(SAMPLE_SERVICE, 'GetSamples')
  getSamples(param: GetSamplesParam__Output): Samples {
    const count = orInvalidArgument(parseIntField('count', param.count, { min: 1, max: this.settings.maxRows }));
    const started = performance.now();
    const samples = buildRows(count);
    processSampler().addPhase('build', performance.now() - started);
    return { samples };
  }
}
