import * as grpc from '@grpc/grpc-js';
import type { ProcessSample, Settings } from '@bench/config';
import { grpcChannelCredentials, MAX_MESSAGE_BYTES, observeSampleCodec } from '@bench/proto';
import type { Connection, ReplyTally, RowTransport } from '../contract';
import { ReplyMeter } from '../common/reply-meter';
import { grpcServiceClient } from './services';

type Unary = (request: unknown, options: grpc.CallOptions, callback: (error: grpc.ServiceError | null, reply?: unknown) => void) => void;
type Client = grpc.Client & Record<string, Unary>;

const CHANNEL_OPTIONS = {
  'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
};

/** A unary call with a deadline: a stuck server fails the case instead of hanging it. */
function call(client: Client, method: string, request: unknown, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) =>
    client[method](request, { deadline: Date.now() + timeoutMs }, (error, reply) => (error ? reject(error) : resolve(reply))),
  );
}

/** server-b over gRPC with a plain @grpc/grpc-js client: the blog's gRPC call without Nest or rxjs. */
export class BareGrpcTransport implements RowTransport {
  readonly name = 'grpc' as const;
  private readonly meter = new ReplyMeter();
  private readonly SampleService = grpcServiceClient<Client>('sample.SampleService');
  private readonly client: Client;
  private readonly metrics: Client;
  private readonly sharedConnection: Connection;

  constructor(private readonly settings: Settings) {
    observeSampleCodec({ decoded: (bytes, ms) => this.meter.record(bytes, ms) });
    this.client = new this.SampleService(settings.serverBUrl, grpcChannelCredentials(settings.security), CHANNEL_OPTIONS);
    this.metrics = new (grpcServiceClient<Client>('bench.metrics.ProcessMetrics'))(settings.serverBUrl, grpcChannelCredentials(settings.security), {});
    this.sharedConnection = this.connect(this.client, async () => undefined);
  }

  shared(): Connection {
    return this.sharedConnection;
  }

  openFresh(): Connection {
    // A distinct channel: grpc-js shares subchannels between clients with equal options unless told not to.
    const client = new this.SampleService(this.settings.serverBUrl, grpcChannelCredentials(this.settings.security), {
      ...CHANNEL_OPTIONS,
      'grpc.use_local_subchannel_pool': 1,
    });
    return this.connect(client, async () => client.close());
  }

  takeReplies(): ReplyTally {
    return this.meter.take();
  }

  async readServerMetrics(resetPeak: boolean): Promise<ProcessSample> {
    return (await call(this.metrics, 'Read', { resetPeak }, this.settings.callTimeoutMs)) as ProcessSample;
  }

  async close(): Promise<void> {
    this.client.close();
    this.metrics.close();
  }

  private connect(client: Client, close: () => Promise<void>): Connection {
    return {
      fetchAll: (rows, requests, deadlineMs) =>
        Promise.all(Array.from({ length: requests }, () => call(client, 'GetSamples', { count: rows }, deadlineMs))),
      close,
    };
  }
}
