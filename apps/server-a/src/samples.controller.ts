import { Controller, Get, Headers, Inject, Param, Res, StreamableFile } from '@nestjs/common';
import { grpcCodecFor, isTuned, processSampler, SETTINGS, type Settings } from '@bench/config';
import { getSamplesCodec } from '@bench/proto';
import { acceptsNdjson, buildRows, NDJSON_MEDIA_TYPE, ndjsonRowStream, type RowStreamPhases, type SampleRow } from '@bench/samples';
import { orBadRequest, parseIntField } from '@bench/validation';
import { sendProtobuf, type RawReply } from './body-formats';

/** A streamed reply's build and encode time, counted as every reply's is. */
const STREAM_PHASES: RowStreamPhases = (phase, ms) => processSampler().addPhase(phase, ms);

@Controller('server-a')
export class SamplesController {
  constructor(@Inject(SETTINGS) private readonly settings: Settings) {}

  /**
   * The blog's endpoint: `count` rows as `{ "samples": [...] }`, serialized by Nest (Express, or Fastify
   * when tuned). Tuned (stream-json-replies), a caller that asks for application/x-ndjson gets the rows
   * as a paced NDJSON stream instead; everyone else still gets the one JSON body. The count is checked
   * first, so a bad one is a 400 before any byte of a stream.
   */
  @Get(':count')
  getSamples(@Param('count') rawCount: string, @Headers('accept') accept?: string): { samples: SampleRow[] } | StreamableFile {
    const count = this.count(rawCount);
    if (acceptsNdjson(accept) && isTuned(this.settings.variant, 'stream-json-replies')) {
      return new StreamableFile(ndjsonRowStream(count, STREAM_PHASES), { type: NDJSON_MEDIA_TYPE });
    }
    return { samples: this.rows(count) };
  }

  /**
   * Transport proto-h1: the same rows as one sample.Samples message in an application/x-protobuf body,
   * encoded by the very serializer server-b's GetSamples uses (the tuned variant's fast codec when tuned).
   */
  @Get('protobuf/:count')
  getSamplesProtobuf(@Param('count') rawCount: string, @Res() reply: RawReply): void {
    const samples = this.rows(this.count(rawCount));
    sendProtobuf(reply, getSamplesCodec(grpcCodecFor(this.settings.variant)).responseSerialize({ samples }));
  }

  private count(rawCount: string): number {
    return orBadRequest(parseIntField('count', rawCount, { min: 1, max: this.settings.maxRows }));
  }

  private rows(count: number): SampleRow[] {
    const started = performance.now();
    const samples = buildRows(count);
    processSampler().addPhase('build', performance.now() - started);
    return samples;
  }
}
