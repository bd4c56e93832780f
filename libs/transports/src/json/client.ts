import type { Agent } from 'node:http';
import type { HttpService } from '@nestjs/axios';
import type { AxiosRequestConfig, AxiosResponseHeaders, RawAxiosResponseHeaders } from 'axios';
import { forkJoin, lastValueFrom, map, type Observable } from 'rxjs';
import type { Settings } from '@bench/config';
import { deadlineHeader } from '@bench/samples';
import type { Connection, RowTransport } from '../contract';
import { Http1Transport } from '../common/http1-transport';
import { failOnReplyStatus, isSuccess } from '../common/reply-status';
import type { BodyDecoder } from '../common/undici-pool';
import { jsonOptions, type JsonOptions } from './options';

/**
 * server-a over HTTP/1.1 with `@nestjs/axios` HttpService and Node's default agent, as the blog did;
 * the tuned variant (tuning `undici-pool`) uses an undici pool that keeps its sockets instead, and asks
 * for large replies as a stream (tuning `stream-json-replies`).
 */
export class JsonTransport extends Http1Transport implements RowTransport {
  readonly name = 'json' as const;
  protected readonly decoder: BodyDecoder;

  constructor(http: HttpService, settings: Settings, options: JsonOptions = jsonOptions(settings)) {
    super(http, settings, options.routePrefix);
    this.decoder = { kind: 'json', streaming: options.streaming };
  }

  /**
   * axios's default response transform for JSON is JSON.parse of the body text; this one does the
   * same parse and times it, and takes the body size from Content-Length (Express always sends it).
   */
  private timedParse = (data: unknown, headers: AxiosResponseHeaders | RawAxiosResponseHeaders, status?: number): unknown => {
    // An error reply (a proxy's text, server-a's JSON error) is left as it came; axios rejects it on its status.
    if (typeof data !== 'string' || !isSuccess(status)) return data;
    const started = performance.now();
    const value: unknown = JSON.parse(data);
    this.meter.record(Number(headers['content-length'] ?? Number.NaN), performance.now() - started);
    return value;
  };

  protected connect(agent: Agent | undefined, close: () => Promise<void>): Connection {
    const base = `${this.settings.serverAUrl}${this.routePrefix}`;
    const config: AxiosRequestConfig = {
      transformResponse: this.timedParse,
      ...(agent ? { httpAgent: agent, httpsAgent: agent } : {}),
    };
    // `rows` is a validated integer, so the URL cannot be steered elsewhere by a request.
    const one = (rows: number, timeout: number): Observable<unknown> =>
      this.http.get(base + rows, { ...config, timeout, headers: deadlineHeader(timeout) }).pipe(map((response) => response.data as unknown), failOnReplyStatus);
    return {
      // Lazy observables fired together and awaited together: the blog's forkJoin.
      fetchAll: (rows, requests, deadlineMs) => lastValueFrom(forkJoin(Array.from({ length: requests }, () => one(rows, deadlineMs)))),
      close,
    };
  }
}
