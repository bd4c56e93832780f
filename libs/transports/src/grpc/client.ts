import { Metadata } from '@grpc/grpc-js';
import { ClientGrpcProxy, type ClientGrpc } from '@nestjs/microservices';
import { forkJoin, lastValueFrom, reduce, type Observable } from 'rxjs';
import type { MethodDefinition } from '@grpc/proto-loader';
import { grpcCodecFor, isTuned, type ProcessSample, type Settings } from '@bench/config';
import { observeSampleCodec, samplePackageDefinition, type GetSamplesParam } from '@bench/proto';
import type { Connection, ReplyTally, RowTransport } from '../contract';
import { ReplyMeter } from '../common/reply-meter';
import { serverBMetrics } from '../common/server-b-metrics';
import type { GrpcUnaryClient } from './lean-unary';
import { clientGrpcOptions, grpcOptions, type GrpcRoute, type GrpcTransportOptions } from './options';

type Reply = Record<string, unknown[]>;
type ServiceClient = Record<string, (param: GetSamplesParam, metadata: Metadata, options: { deadline: number }) => Observable<Reply>>;

/**
 * Reply sizes and decode times come from inside the deserializer Nest calls, through the one codec
 * observer of the process; every gRPC transport shares this meter (cases run one at a time).
 */
const grpcReplies = new ReplyMeter();

/** Tuned (stream-large-replies): replies from this many rows on are streamed in chunks. */
export const STREAM_FROM_ROWS = 20_000;

type UnaryMethod = Pick<MethodDefinition<GetSamplesParam, unknown>, 'path' | 'requestSerialize' | 'responseDeserialize'>;

/** The route's unary method as the process's package definition has it (its path and the variant's codec). */
function unaryMethod(settings: Settings, { service, method }: GrpcRoute): UnaryMethod {
  for (const [name, entry] of Object.entries(samplePackageDefinition(grpcCodecFor(settings.variant)))) {
    if (!name.endsWith(`.${service}`)) continue;
    const methods = Object.entries(entry as unknown as Record<string, MethodDefinition<GetSamplesParam, unknown>>);
    const found = methods.find(([key, definition]) => key === method || definition.originalName === method);
    if (found) return found[1];
  }
  throw new Error(`no method ${service}/${method} in the gRPC package definition`);
}

/** server-b over gRPC with Nest's ClientGrpc, as the blog did (tuned: small replies by a lean unary client). */
export class GrpcTransport implements RowTransport {
  readonly name = 'grpc' as const;
  private sharedConnection: Connection | undefined;
  private readonly route: GrpcRoute;
  private readonly unary: GrpcUnaryClient | null;

  constructor(
    private readonly client: ClientGrpc,
    private readonly settings: Settings,
    options: GrpcTransportOptions = grpcOptions(settings),
  ) {
    this.route = options.route;
    this.unary = options.unary;
    observeSampleCodec({ decoded: (bytes, ms) => grpcReplies.record(bytes, ms) });
  }

  /** Made on first use (after Nest has set up the gRPC client), then kept for the app's lifetime. */
  shared(): Connection {
    this.sharedConnection ??= this.connect(this.client, this.unary, async () => undefined);
    return this.sharedConnection;
  }

  openFresh(): Connection {
    // A channel of its own: grpc-js would otherwise reuse the shared channel's connection (global subchannel pool).
    const proxy = new ClientGrpcProxy(clientGrpcOptions(this.settings, { 'grpc.use_local_subchannel_pool': 1 }).options);
    const unary = this.unary?.fresh() ?? null;
    return this.connect(proxy, unary, async () => {
      proxy.close();
      await unary?.close();
    });
  }

  /** Called on shutdown: the unary client's open HTTP/2 session would keep the process alive. */
  async close(): Promise<void> {
    await this.unary?.close();
  }

  takeReplies(): ReplyTally {
    return grpcReplies.take();
  }

  readServerMetrics(resetPeak: boolean): Promise<ProcessSample> {
    return serverBMetrics(this.client)(resetPeak);
  }

  private connect(client: ClientGrpc, unary: GrpcUnaryClient | null, close: () => Promise<void>): Connection {
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
    const lean = unary === null ? null : this.leanCall(unary);
    return {
      fetchAll: (rows, requests, deadlineMs) =>
        lean !== null && (streamed === undefined || rows < STREAM_FROM_ROWS)
          ? Promise.all(Array.from({ length: requests }, () => lean(rows, deadlineMs)))
          : lastValueFrom(forkJoin(Array.from({ length: requests }, () => one(rows, deadlineMs)))),
      close,
    };
  }

  /** One call of the route through the lean unary client, encoded and decoded by the codec Nest would use. */
  private leanCall(unary: GrpcUnaryClient): (rows: number, deadlineMs: number) => Promise<Reply> {
    const { path, requestSerialize, responseDeserialize } = unaryMethod(this.settings, this.route);
    return async (rows, deadlineMs) => responseDeserialize(await unary.call(path, requestSerialize({ count: rows }), deadlineMs)) as Reply;
  }
}
