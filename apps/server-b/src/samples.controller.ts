import { Controller, Inject } from '@nestjs/common';
import type { Metadata, ServerUnaryCall, ServerWritableStream } from '@grpc/grpc-js';
import { GrpcMethod } from '@nestjs/microservices';
import { processSampler, SETTINGS, type Settings } from '@bench/config';
import { SAMPLE_SERVICE, type GetSamplesParam__Output, type Samples } from '@bench/proto';
import { buildRowRange, STREAM_CHUNK_ROWS } from '@bench/samples';
import { slicedSamplesReply } from './sliced-reply';
import type { Observable } from 'rxjs';
import { requestedCount } from './count-param';
import { pacedChunks } from './paced-chunks';

@Controller()
export class SamplesController {
  constructor(@Inject(SETTINGS) private readonly settings: Settings) {}

  /**
   * The blog's RPC: `count` rows as `Samples`, serialized by Nest's gRPC transport's codec (proto-loader,
   * or the tuned variant's). A reply of more than one slice is built and encoded a slice at a time and
   * stops when the call's deadline passes or it is cancelled (slicedSamplesReply).
   */
  @GrpcMethod(SAMPLE_SERVICE, 'GetSamples')
  getSamples(param: GetSamplesParam__Output, _metadata: Metadata, call: ServerUnaryCall<unknown, Samples>): Promise<Samples | Buffer> {
    processSampler().countRequest();
    return slicedSamplesReply(this.count(param), call, this.settings.variant, 'server-b GetSamples reply');
  }

  /**
   * The same rows as a stream of Samples messages of STREAM_CHUNK_ROWS rows, so building, encoding,
   * sending and the client's decoding overlap instead of running one after the other; each chunk is
   * built when the call has sent the one before (pacedChunks says why).
   */
  @GrpcMethod(SAMPLE_SERVICE, 'GetSamplesStream')
  getSamplesStream(param: GetSamplesParam__Output, _metadata: Metadata, call: ServerWritableStream<unknown, Samples>): Observable<Samples> {
    const count = this.count(param);
    return pacedChunks(count, STREAM_CHUNK_ROWS, call, (start, end): Samples => {
      const started = performance.now();
      const samples = buildRowRange(start, end);
      processSampler().addPhase('build', performance.now() - started);
      return { samples };
    });
  }

  /** The validated row count, or INVALID_ARGUMENT naming what is wrong (including undecodable bytes). */
  private count(param: GetSamplesParam__Output): number {
    return requestedCount(param, 'GetSamplesParam', this.settings.maxRows);
  }
}
