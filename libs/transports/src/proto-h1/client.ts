import type { Agent } from 'node:http';
import type { HttpService } from '@nestjs/axios';
import type { AxiosResponseHeaders, RawAxiosResponseHeaders } from 'axios';
import { forkJoin, lastValueFrom, map, type Observable } from 'rxjs';
import type { Settings } from '@bench/config';
import { PROTOBUF_MEDIA_TYPE } from '@bench/proto';
import { deadlineHeader } from '@bench/samples';
import type { Connection, RowTransport } from '../contract';
import { Http1Transport } from '../common/http1-transport';
import { failOnReplyStatus } from '../common/reply-status';
import type { BodyDecoder } from '../common/undici-pool';
import { protoH1Options, type ProtoH1Options } from './options';

/**
 * Transport proto-h1: server-a's rows as one sample.Samples message in an application/x-protobuf body
 * over HTTP/1.1 (GET /server-a/protobuf/:count), decoded by the same GetSamples deserializer the gRPC
 * client uses (libs/proto getSamplesCodec; the fast codec when tuned). Against `json` only the codec
 * differs; against `grpc` only the protocol and library. The HTTP client is the JSON transport's.
 */
export class ProtoH1Transport extends Http1Transport implements RowTransport {
  readonly name = 'proto-h1' as const;
  protected readonly decoder: BodyDecoder;

  constructor(http: HttpService, settings: Settings, options: ProtoH1Options = protoH1Options(settings)) {
    super(http, settings, options.routePrefix);
    this.decoder = { kind: 'bytes', decode: options.decode };
  }

  private timedDecode = (data: unknown, headers: AxiosResponseHeaders | RawAxiosResponseHeaders): unknown => {
    if (!Buffer.isBuffer(data)) return data;
    // An error reply (JSON) is left as text; axios rejects it on its status.
    if (!String(headers['content-type'] ?? '').startsWith(PROTOBUF_MEDIA_TYPE) || this.decoder.kind !== 'bytes') return data.toString('utf8');
    const started = performance.now();
    const value = this.decoder.decode(data);
    this.meter.record(data.length, performance.now() - started);
    return value;
  };

  protected connect(agent: Agent | undefined, close: () => Promise<void>): Connection {
    const base = `${this.settings.serverAUrl}${this.routePrefix}`;
    const one = (rows: number, timeout: number): Observable<unknown> =>
      this.http
        .get(base + rows, { responseType: 'arraybuffer', transformResponse: this.timedDecode, timeout, headers: deadlineHeader(timeout), ...(agent ? { httpAgent: agent, httpsAgent: agent } : {}) })
        .pipe(map((response) => response.data as unknown), failOnReplyStatus);
    return {
      fetchAll: (rows, requests, deadlineMs) => lastValueFrom(forkJoin(Array.from({ length: requests }, () => one(rows, deadlineMs)))),
      close,
    };
  }
}
