import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { processSampler, SETTINGS, type Settings } from '@bench/config';
import { SAMPLE_SERVICE, type GetSamplesParam__Output, type Samples } from '@bench/proto';
import { buildRowRange, buildRows, STREAM_CHUNK_ROWS } from '@bench/samples';
import { Observable } from 'rxjs';
import { requestedCount } from './count-param';

@Controller()
export class SamplesController {
  constructor(@Inject(SETTINGS) private readonly settings: Settings) {}

  /** The blog's RPC: `count` rows as `Samples`, serialized by Nest's gRPC transport (proto-loader). */
  @GrpcMethod(SAMPLE_SERVICE, 'GetSamples')
  getSamples(param: GetSamplesParam__Output): Samples {
    const count = this.count(param);
    const started = performance.now();
    const samples = buildRows(count);
    processSampler().addPhase('build', performance.now() - started);
    return { samples };
  }

  /**
   * The same rows as a stream of Samples messages of STREAM_CHUNK_ROWS rows. Each chunk is built when
   * the previous one has been handed to the transport (setImmediate), so building, encoding, sending
   * and the client's decoding overlap instead of running one after the other.
   */
  @GrpcMethod(SAMPLE_SERVICE, 'GetSamplesStream')
  getSamplesStream(param: GetSamplesParam__Output): Observable<Samples> {
    const count = this.count(param);
    return new Observable<Samples>((subscriber) => {
      let start = 0;
      let timer: NodeJS.Immediate | undefined;
      const next = () => {
        const end = Math.min(start + STREAM_CHUNK_ROWS, count);
        const started = performance.now();
        const samples = buildRowRange(start, end);
        processSampler().addPhase('build', performance.now() - started);
        subscriber.next({ samples });
        start = end;
        if (start >= count) subscriber.complete();
        else timer = setImmediate(next);
      };
      next();
      return () => timer && clearImmediate(timer);
    });
  }

  /** The validated row count, or INVALID_ARGUMENT naming what is wrong (including undecodable bytes). */
  private count(param: GetSamplesParam__Output): number {
    return requestedCount(param, 'GetSamplesParam', this.settings.maxRows);
  }
}
