import { Inject, Injectable } from '@nestjs/common';
import { Metadata } from '@grpc/grpc-js';
import { ClientGrpcProxy, type ClientGrpc } from '@nestjs/microservices';
import { firstValueFrom, forkJoin, lastValueFrom, reduce, type Observable } from 'rxjs';
import { isTuned, SETTINGS, type ProcessSample, type Settings } from '@bench/config';
import { ReplyMeter, type Connection, type ReplyTally, type RowTransport } from '@bench/harness';
import { METRICS_SERVICE, observeSampleCodec, SAMPLE_SERVICE, type GetSamplesParam } from '@bench/proto';
import { clientGrpcOptions } from './grpc-client-options';
import { SAMPLE_GRPC_CLIENT } from './tokens';

type Reply = Record<string, unknown[]>;
type ServiceClient = Record<string, (param: GetSamplesParam, metadata: Metadata, options: { deadline: number }) => Observable<Reply>>;

/** The RPC a GrpcTransport calls, with its streamed twin if it has one, and the reply's list field. */
export interface GrpcRoute {
  service: string;
  method: string;
  streamMethod?: string;
  field: string;
}

/** The blog's GetSamples (and our GetSamplesStream), replying `{ samples: [...] }`. */
export const SAMPLES_GRPC_ROUTE: GrpcRoute = { service: SAMPLE_SERVICE, method: 'getSamples', streamMethod: 'getSamplesStream', field: 'samples' };

/**
 * Reply sizes and decode times come from inside the deserializer Nest calls, through the one codec
 * observer of the process; every gRPC transport shares this meter (cases run one at a time).
 */
const grpcReplies = new ReplyMeter();

/** Tuned (stream-large-replies): replies from this many rows on are streamed in chunks. */
export const STREAM_FROM_ROWS = 20_000;

interface ProcessMetricsClient {
  read(request: { resetPeak: boolean }): Observable<ProcessSample>;
}

/** server-b over gRPC with Nest's ClientGrpc, as the blog did. */
@Injectable()
export class GrpcTransport implements RowTransport {
  readonly name = 'grpc' as const;
  private sharedConnection: Connection | undefined;

  constructor(
    @Inject(SAMPLE_GRPC_CLIENT) private readonly client: ClientGrpc,
    @Inject(SETTINGS) private readonly settings: Settings,
    private readonly route: GrpcRoute = SAMPLES_GRPC_ROUTE,
  ) {
    observeSampleCodec({ decoded: (bytes, ms) => grpcReplies.record(bytes, ms) });
  }

  /** Made on first use (after Nest has set up the gRPC client), then kept for the app's lifetime. */
  shared(): Connection {
    this.sharedConnection ??= this.connect(this.client, async () => undefined);
    return this.sharedConnection;
  }

  openFresh(): Connection {
    // A channel of its own: grpc-js would otherwise reuse the shared channel's connection (global subchannel pool).
    const proxy = new ClientGrpcProxy(clientGrpcOptions(this.settings, { 'grpc.use_local_subchannel_pool': 1 }).options);
    return this.connect(proxy, async () => proxy.close());
  }

  takeReplies(): ReplyTally {
    return grpcReplies.take();
  }

  readServerMetrics(resetPeak: boolean): Promise<ProcessSample> {
    return firstValueFrom(this.client.getService<ProcessMetricsClient>(METRICS_SERVICE).read({ resetPeak }));
  }

  private connect(client: ClientGrpc, close: () => Promise<void>): Connection {
    const { service: serviceName, method, streamMethod, field } = this.route;
    const service = client.getService<ServiceClient>(serviceName);
    const streamed = isTuned(this.settings.variant, 'stream-large-replies') ? streamMethod : undefined;
    // Every call gets the deadline the bench gave the case: a stuck server fails the case instead of hanging it.
    const deadline = (ms: number) => ({ deadline: Date.now() + ms });
    const one = (rows: number, deadlineMs: number): Observable<Reply> =>
      streamed !== undefined && rows >= STREAM_FROM_ROWS
        ? service[streamed]({ count: rows }, new Metadata(), deadline(deadlineMs)).pipe(
            reduce<Reply, Reply>((reply, chunk) => {
              for (const row of chunk[field]) reply[field].push(row);
              return reply;
            }, { [field]: [] }),
          )
        : service[method]({ count: rows }, new Metadata(), deadline(deadlineMs));
    return {
      fetchAll: (rows, requests, deadlineMs) => lastValueFrom(forkJoin(Array.from({ length: requests }, () => one(rows, deadlineMs)))),
      close,
    };
  }
}
