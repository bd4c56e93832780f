import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { grpcCodecFor, processSampler, SETTINGS, type Settings } from '@bench/config';
import { getSamplesCodec } from '@bench/proto';
import { buildRows, type SampleRow } from '@bench/samples';
import { orBadRequest, parseIntField } from '@bench/validation';
import { sendProtobuf, type RawReply } from './body-formats';

@Controller('server-a')
export class SamplesController {
  constructor(@Inject(SETTINGS) private readonly settings: Settings) {}

  /** The blog's endpoint: `count` rows as `{ "samples": [...] }`, serialized by Nest/Express. */
  @Get(':count')
  getSamples(@Param('count') rawCount: string): { samples: SampleRow[] } {
    return { samples: this.rows(rawCount) };
  }

  /**
   * Transport proto-h1: the same rows as one sample.Samples message in an application/x-protobuf body,
   * encoded by the very serializer server-b's GetSamples uses (the tuned variant's fast codec when tuned).
   */
  @Get('protobuf/:count')
  getSamplesProtobuf(@Param('count') rawCount: string, @Res() reply: RawReply): void {
    const samples = this.rows(rawCount);
    sendProtobuf(reply, getSamplesCodec(grpcCodecFor(this.settings.variant)).responseSerialize({ samples }));
  }

  private rows(rawCount: string): SampleRow[] {
    const count = orBadRequest(parseIntField('count', rawCount, { min: 1, max: this.settings.maxRows }));
    const started = performance.now();
    const samples = buildRows(count);
    processSampler().addPhase('build', performance.now() - started);
    return samples;
  }
}
