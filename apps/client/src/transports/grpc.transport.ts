import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ClientGrpcProxy, type ClientGrpc } from '@nestjs/microservices';
import { firstValueFrom, forkJoin, lastValueFrom, type Observable } from 'rxjs';
import { SETTINGS, type ProcessSample, type Settings } from '@bench/config';
import { ReplyMeter, type Connection, type ReplyTally, type RowTransport } from '@bench/harness';
import { METRICS_SERVICE, observeSampleCodec, SAMPLE_SERVICE, sampleGrpcOptions, type GetSamplesParam, type Samples__Output } from '@bench/proto';
import { SAMPLE_GRPC_CLIENT } from './tokens';

interface SampleServiceClient {
  getSamples(param: GetSamplesParam): Observable<Samples__Output>;
}

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
    const options = sampleGrpcOptions(this.settings.serverBUrl).options;
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
    return {
      fetchAll: (rows, requests) =>
        lastValueFrom(forkJoin(Array.from({ length: requests }, () => service.getSamples({ count: rows })))),
      close,
    };
  }
}
