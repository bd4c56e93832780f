import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ClientGrpcProxy, type ClientGrpc } from '@nestjs/microservices';
import { firstValueFrom, type Observable } from 'rxjs';
import { SETTINGS, type ProcessSample, type Settings } from '@bench/config';
import { grpcReplyMeter, METRICS_SERVICE, SAMPLE_SERVICE, sampleGrpcOptions, type GetSamplesParam, type Samples__Output } from '@bench/proto';
import { SAMPLE_GRPC_CLIENT, type Connection, type RowTransport } from './row-transport';

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
  private sharedConnection!: Connection;

  constructor(
    @Inject(SAMPLE_GRPC_CLIENT) private readonly client: ClientGrpc,
    @Inject(SETTINGS) private readonly settings: Settings,
  ) {}

  onModuleInit(): void {
    this.sharedConnection = this.connect(this.client, async () => undefined);
  }

  shared(): Connection {
    return this.sharedConnection;
  }

  openFresh(): Connection {
    const proxy = new ClientGrpcProxy(sampleGrpcOptions(this.settings.serverBUrl).options);
    return this.connect(proxy, async () => proxy.close());
  }

  takeReplyBytes(): { messages: number; bytes: number } {
    return grpcReplyMeter.take();
  }

  readServerMetrics(resetPeak: boolean): Promise<ProcessSample> {
    return firstValueFrom(this.client.getService<ProcessMetricsClient>(METRICS_SERVICE).read({ resetPeak }));
  }

  private connect(client: ClientGrpc, close: () => Promise<void>): Connection {
    const service = client.getService<SampleServiceClient>(SAMPLE_SERVICE);
    return { getSamples: (rows: number) => service.getSamples({ count: rows }), close };
  }
}
