import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Metadata } from '@grpc/grpc-js';
import { ClientGrpcProxy, type ClientGrpc } from '@nestjs/microservices';
import { firstValueFrom, forkJoin, lastValueFrom, reduce, type Observable } from 'rxjs';
import { grpcCodecFor, isTuned, SETTINGS, type ProcessSample, type Settings } from '@bench/config';
import { ReplyMeter, type Connection, type ReplyTally, type RowTransport } from '@bench/harness';
import { METRICS_SERVICE, observeSampleCodec, SAMPLE_SERVICE, sampleGrpcOptions, type GetSamplesParam, type Samples__Output } from '@bench/proto';
import { SAMPLE_GRPC_CLIENT } from './tokens';

interface SampleServiceClient {
  getSamples(param: GetSamplesParam, metadata: Metadata, options: { deadline: number }): Observable<Samples__Output>;
  getSamplesStream(param: GetSamplesParam, metadata: Metadata, options: { deadline: number }): Observable<Samples__Output>;
}

/** Tuned (stream-large-replies): replies from this many rows on are streamed in chunks. */
export const STREAM_FROM_ROWS = 20_000;

interface ProcessMetricsClient {
  read(request: { resetPeak: boolean }): Observable<ProcessSample>;
}

/** server-b over gRPC with Nest's ClientGrpc, as the blog did. */
@Injectable()
export class GrpcTransport implements RowTransport, OnModuleInit {
  readonly name = 'grpc' as const;
  private readonly meter = new ReplyMeter();
  private sharedConnection!: Connection;

  constructor(
    @Inject(SAMPLE_GRPC_CLIENT) private readonly client: ClientGrpc,
    @Inject(SETTINGS) private readonly settings: Settings,
  ) {
    // Reply sizes and decode times come from inside the deserializer Nest calls.
    observeSampleCodec({ decoded: (bytes, ms) => this.meter.record(bytes, ms) });
  }

  onModuleInit(): void {
    this.sharedConnection = this.connect(this.client, async () => undefined);
  }

  shared(): Connection {
    return this.sharedConnection;
  }

  openFresh(): Connection {
    // A channel of its own: grpc-js would otherwise reuse the shared channel's connection (global subchannel pool).
    const options = sampleGrpcOptions(this.settings.serverBUrl, grpcCodecFor(this.settings.variant)).options;
    const proxy = new ClientGrpcProxy({ ...options, channelOptions: { 'grpc.use_local_subchannel_pool': 1 } });
    return this.connect(proxy, async () => proxy.close());
  }

  takeReplies(): ReplyTally {
    return this.meter.take();
  }

  readServerMetrics(resetPeak: boolean): Promise<ProcessSample> {
    return firstValueFrom(this.client.getService<ProcessMetricsClient>(METRICS_SERVICE).read({ resetPeak }));
  }

  private connect(client: ClientGrpc, close: () => Promise<void>): Connection {
    const service = client.getService<SampleServiceClient>(SAMPLE_SERVICE);
    const stream = isTuned(this.settings.variant, 'stream-large-replies');
    // Every call gets a deadline (CALL_TIMEOUT_MS): a stuck server fails the case instead of hanging it.
    const deadline = () => ({ deadline: Date.now() + this.settings.callTimeoutMs });
    const one = (rows: number): Observable<Samples__Output> =>
      stream && rows >= STREAM_FROM_ROWS
        ? service.getSamplesStream({ count: rows }, new Metadata(), deadline()).pipe(
            reduce<Samples__Output, Samples__Output>((reply, chunk) => {
              for (const row of chunk.samples) reply.samples.push(row);
              return reply;
            }, { samples: [] }),
          )
        : service.getSamples({ count: rows }, new Metadata(), deadline());
    return {
      fetchAll: (rows, requests) => lastValueFrom(forkJoin(Array.from({ length: requests }, () => one(rows)))),
      close,
    };
  }
}
