import { Controller, Get, Inject, Param } from '@nestjs/common';
import { processSampler, SETTINGS, type Settings } from '@bench/config';
import { buildRows, type SampleRow } from '@bench/samples';
import { orBadRequest, parseIntField } from '@bench/validation';

@Controller('server-a')
export class SamplesController {
  constructor(@Inject(SETTINGS) private readonly settings: Settings) {}

  /** The blog's endpoint: `count` rows as `{ "samples": [...] }`, serialized by Nest/Express. */
  @Get(':count')
  getSamples(@Param('count') rawCount: string): { samples: SampleRow[] } {
    const count = orBadRequest(parseIntField('count', rawCount, { min: 1, max: this.settings.maxRows }));
    const started = performance.now();
    const samples = buildRows(count);
    processSampler().addPhase('build', performance.now() - started);
    return { samples };
  }
}
