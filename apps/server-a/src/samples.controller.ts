import { Controller, Get, Headers, Inject, Param, Res, StreamableFile } from '@nestjs/common';
import { grpcCodecFor, isTuned, processSampler, SETTINGS, type Settings } from '@bench/config';
import { acceptsNdjson, buildRows, type RowStreamPhases, type SampleRow } from '@bench/samples';
import { JSON_ROWS_CONTROLLER, jsonRowsReply, PROTOBUF_ROWS_ROUTE, protobufRowsBody, rowCountOf } from '@bench/transports';
import { orBadRequest } from '@bench/validation';
import { dropReply, sendProtobuf, type RawReply } from './body-formats';
import { abandonable, CallerSignal, type CallerSignalOf } from './caller-signal';

/** A streamed reply's build and encode time, counted as every reply's is. */
const STREAM_PHASES: RowStreamPhases = (phase, ms) => processSampler().addPhase(phase, ms);

/** The routes of transports json (and json-h2, on the HTTP/2 listener) and proto-h1, as their folders' server bindings frame them (libs/transports). */
@Controller(JSON_ROWS_CONTROLLER)
export class SamplesController {
  constructor(@Inject(SETTINGS) private readonly settings: Settings) {}

  /**
   * The blog's endpoint: `count` rows as `{ "samples": [...] }`, serialized by Nest (Express, or Fastify
   * when tuned). Tuned (stream-json-replies), a caller that asks for application/x-ndjson gets the rows
   * as a paced NDJSON stream instead; everyone else still gets the one JSON body. The count is checked
   * first, so a bad one is a 400 before any byte of a stream. A body of more than WHOLE_REPLY_MAX_ROWS
   * rows is the same bytes produced a slice at a time (json/server.ts's jsonRowsReply says how).
   */
  @Get(':count')
  getSamples(@Param('count') rawCount: string, @CallerSignal() signalOf: CallerSignalOf, @Headers('accept') accept?: string): { samples: SampleRow[] } | StreamableFile {
    const count = this.count(rawCount);
    processSampler().countRequest();
    const reply = jsonRowsReply(count, { ndjson: acceptsNdjson(accept) && isTuned(this.settings.variant, 'stream-json-replies'), signal: signalOf, phases: STREAM_PHASES });
    if (reply.kind === 'whole') return { samples: this.rows(count) };
    return abandonable(new StreamableFile(reply.stream, { type: reply.type, ...(reply.kind === 'sliced' ? { length: reply.length } : {}) }));
  }

  /**
   * Transport proto-h1: the same rows as one sample.Samples message in an application/x-protobuf body,
   * encoded by the very serializer server-b's GetSamples uses (the tuned variant's fast codec when tuned).
   */
  @Get(PROTOBUF_ROWS_ROUTE)
  async getSamplesProtobuf(@Param('count') rawCount: string, @CallerSignal() signalOf: CallerSignalOf, @Res() reply: RawReply): Promise<void> {
    const body = await protobufRowsBody(this.count(rawCount), grpcCodecFor(this.settings.variant), signalOf, STREAM_PHASES);
    if (body) sendProtobuf(reply, body);
    else dropReply(reply);
  }

  private count(rawCount: string): number {
    return orBadRequest(rowCountOf(rawCount, this.settings));
  }

  private rows(count: number): SampleRow[] {
    const started = performance.now();
    const samples = buildRows(count);
    processSampler().addPhase('build', performance.now() - started);
    return samples;
  }
}
