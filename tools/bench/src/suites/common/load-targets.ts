import * as grpc from '@grpc/grpc-js';
import * as http from 'node:http';
import * as https from 'node:https';
import type { ProcessSample } from '@bench/config';
import { grpcChannelCredentials, MAX_MESSAGE_BYTES } from '@bench/proto';
import { callerTls, grpcServiceClient } from '@bench/transports';
import type { Servers } from '../callers/echo-callers';

type Unary = (request: unknown, options: grpc.CallOptions, callback: (error: grpc.ServiceError | null, reply?: unknown) => void) => void;
type Client = grpc.Client & Record<string, Unary>;

const TIMEOUT_MS = 10_000;

/**
 * Load targets of bench:load and bench:soak: server-a over keep-alive HTTP/1.1 and server-b over one gRPC
 * channel, plus their metrics; under TLS both verified against the run's CA (the client's certificate under mtls).
 */
export class LoadTargets {
  private readonly serverAUrl: string;
  private readonly agent: http.Agent;
  private readonly get: (url: string, options: http.RequestOptions, callback: (res: http.IncomingMessage) => void) => http.ClientRequest;
  private readonly samples: Client;
  private readonly metrics: Client;

  constructor(servers: Servers, httpConnections: number) {
    this.serverAUrl = servers.serverAUrl;
    const pool = { keepAlive: true, maxSockets: httpConnections, maxFreeSockets: httpConnections };
    const tls = callerTls(servers.security);
    this.agent = tls ? new https.Agent({ ...pool, ...tls, ALPNProtocols: ['http/1.1'] }) : new http.Agent(pool);
    this.get = tls ? https.get : http.get;
    const credentials = () => grpcChannelCredentials(servers.security);
    const SampleService = grpcServiceClient<Client>('sample.SampleService');
    this.samples = new SampleService(servers.serverBAddress, credentials(), {
      'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    });
    this.metrics = new (grpcServiceClient<Client>('bench.metrics.ProcessMetrics'))(servers.serverBAddress, credentials());
  }

  /** One GET /server-a/:rows; a non-200 or a timeout is an error. */
  httpCall(rows: number): Promise<void> {
    return this.text(`${this.serverAUrl}/server-a/${rows}`).then(() => undefined);
  }

  /** One GetSamples; any status other than OK is an error. */
  grpcCall(rows: number): Promise<void> {
    return this.unary(this.samples, 'GetSamples', { count: rows }).then(() => undefined);
  }

  async serverAMetrics(): Promise<ProcessSample> {
    return JSON.parse(await this.text(`${this.serverAUrl}/metrics`)) as ProcessSample;
  }

  async serverBMetrics(): Promise<ProcessSample> {
    return (await this.unary(this.metrics, 'Read', { resetPeak: false })) as ProcessSample;
  }

  close(): void {
    this.agent.destroy();
    this.samples.close();
    this.metrics.close();
  }

  private text(url: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = this.get(url, { agent: this.agent, timeout: TIMEOUT_MS }, (res) => {
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
