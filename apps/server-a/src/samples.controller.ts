import { Controller, Get, Headers, Inject, Param, Res, StreamableFile } from '@nestjs/common';
import { grpcCodecFor, isTuned, processSampler, SETTINGS, type Settings } from '@bench/config';
import { getSamplesCodec } from '@bench/proto';
import {
  acceptsNdjson,
  buildRows,
  buildRowsSliced,
  encodeSliced,
  jsonRowsStream,
  NDJSON_MEDIA_TYPE,
  ndjsonRowStream,
  noteAbandoned,
  samplesJsonLength,
  WHOLE_REPLY_MAX_ROWS,
  type RowStreamPhases,
  type SampleRow,
} from '@bench/samples';
import { orBadRequest, parseIntField } from '@bench/validation';
import { dropReply, sendProtobuf, type RawReply } from './body-formats';
import { abandonable, CallerSignal, type CallerSignalOf } from './caller-signal';

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
   * A body of more than WHOLE_REPLY_MAX_ROWS rows is the same bytes with the same Content-Length,
   * produced a slice at a time as the socket takes them (jsonRowsStream): a caller that stops reading
   * holds one slice, and one whose deadline passes or that goes away stops the work within a slice.
   */
  @Get(':count')
  getSamples(@Param('count') rawCount: string, @CallerSignal() signalOf: CallerSignalOf, @Headers('accept') accept?: string): { samples: SampleRow[] } | StreamableFile {
    const count = this.count(rawCount);
    processSampler().countRequest();
    if (acceptsNdjson(accept) && isTuned(this.settings.variant, 'stream-json-replies')) {
      return abandonable(new StreamableFile(ndjsonRowStream(count, STREAM_PHASES, undefined, signalOf()), { type: NDJSON_MEDIA_TYPE }));
    }
    if (count <= WHOLE_REPLY_MAX_ROWS) return { samples: this.rows(count) };
    const stream = jsonRowsStream(count, { signal: signalOf(), phases: STREAM_PHASES, what: 'server-a JSON reply' });
    return abandonable(new StreamableFile(stream, { type: 'application/json; charset=utf-8', length: samplesJsonLength(count) }));
  }

  /**
   * Transport proto-h1: the same rows as one sample.Samples message in an application/x-protobuf body,
   * encoded by the very serializer server-b's GetSamples uses (the tuned variant's fast codec when tuned).
   */
  @Get('protobuf/:count')
  async getSamplesProtobuf(@Param('count') rawCount: string, @CallerSignal() signalOf: CallerSignalOf, @Res() reply: RawReply): Promise<void> {
    const count = this.count(rawCount);
    const serialize = getSamplesCodec(grpcCodecFor(this.settings.variant)).responseSerialize;
    if (count <= WHOLE_REPLY_MAX_ROWS) return sendProtobuf(reply, serialize({ samples: this.rows(count) }));
    // Larger: built, then encoded, a slice at a time (the parts concatenated are the one message), stopping when the caller goes.
    const signal = signalOf();
    try {
      const samples = await buildRowsSliced(count, signal, STREAM_PHASES);
      sendProtobuf(reply, Buffer.concat(await encodeSliced(samples, (slice) => serialize({ samples: slice }), signal)));
    } catch (error) {
      if (!signal.aborted) throw error;
      noteAbandoned(`server-a protobuf reply of ${count} rows`, signal.reason);
      dropReply(reply);
    }
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
