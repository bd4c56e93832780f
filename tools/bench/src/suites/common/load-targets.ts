import * as grpc from '@grpc/grpc-js';
import * as http from 'node:http';
import type { ProcessSample } from '@bench/config';
import { MAX_MESSAGE_BYTES } from '@bench/proto';
import { grpcServiceClient } from '@bench/transports';

type Unary = (request: unknown, options: grpc.CallOptions, callback: (error: grpc.ServiceError | null, reply?: unknown) => void) => void;
type Client = grpc.Client & Record<string, Unary>;

const TIMEOUT_MS = 10_000;

/** Load targets of bench:load and bench:soak: server-a over keep-alive HTTP/1.1 and server-b over one gRPC channel, plus their metrics. */
export class LoadTargets {
  private readonly agent: http.Agent;
  private readonly samples: Client;
  private readonly metrics: Client;

  constructor(
    private readonly serverAUrl: string,
    serverBUrl: string,
    httpConnections: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: httpConnections, maxFreeSockets: httpConnections });
    const SampleService = grpcServiceClient<Client>('sample.SampleService');
    this.samples = new SampleService(serverBUrl, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    });
    this.metrics = new (grpcServiceClient<Client>('bench.metrics.ProcessMetrics'))(serverBUrl, grpc.credentials.createInsecure());
  }

  /** One GET /server-a/:rows; a non-200 or a timeout is an error. */
  httpCall(rows: number): Promise<void> {
    return this.get(`${this.serverAUrl}/server-a/${rows}`).then(() => undefined);
  }

  /** One GetSamples; any status other than OK is an error. */
  grpcCall(rows: number): Promise<void> {
    return this.unary(this.samples, 'GetSamples', { count: rows }).then(() => undefined);
  }

  async serverAMetrics(): Promise<ProcessSample> {
    return JSON.parse(await this.get(`${this.serverAUrl}/metrics`)) as ProcessSample;
  }

  async serverBMetrics(): Promise<ProcessSample> {
    return (await this.unary(this.metrics, 'Read', { resetPeak: false })) as ProcessSample;
  }

  close(): void {
    this.agent.destroy();
    this.samples.close();
    this.metrics.close();
  }

  private get(url: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = http.get(url, { agent: this.agent, timeout: TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`HTTP ${res.statusCode}`))));
      });
      req.on('timeout', () => req.destroy(new Error(`timeout after ${TIMEOUT_MS} ms`)));
      req.on('error', reject);
    });
  }

  private unary(client: Client, method: string, request: unknown): Promise<unknown> {
    return new Promise((resolve, reject) =>
      client[method](request, { deadline: Date.now() + TIMEOUT_MS }, (error, reply) =>
        error ? reject(new Error(`gRPC ${grpc.status[error.code]}: ${error.details}`)) : resolve(reply),
      ),
    );
  }
}
