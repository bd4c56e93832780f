import { Agent } from 'node:http';
import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import type { AxiosRequestConfig, AxiosResponseHeaders, RawAxiosResponseHeaders } from 'axios';
import { firstValueFrom, forkJoin, lastValueFrom, map, type Observable } from 'rxjs';
import { isTuned, SETTINGS, type ProcessSample, type Settings } from '@bench/config';
import { ReplyMeter, type Connection, type ReplyTally, type RowTransport } from '@bench/harness';
import { undiciConnection } from './undici-json';

/**
 * server-a over HTTP/1.1 with `@nestjs/axios` HttpService and Node's default agent, as the blog did;
 * the tuned variant (tuning `undici-pool`) uses an undici pool that keeps its sockets instead.
 */
@Injectable()
export class JsonTransport implements RowTransport {
  readonly name = 'json' as const;
  private readonly meter = new ReplyMeter();
  private readonly sharedConnection: Connection;

  constructor(
    private readonly http: HttpService,
    @Inject(SETTINGS) private readonly settings: Settings,
    /** Where server-a serves these replies: the blog's `/server-a/`, or a payload's `/server-a/orders/`; the row count follows. */
    private readonly routePrefix = '/server-a/',
  ) {
    this.sharedConnection = this.undici() ? this.undiciConnection() : this.connect(undefined, async () => undefined);
  }

  private undiciConnection(): Connection {
    return undiciConnection(this.settings.serverAUrl, this.routePrefix, this.settings.maxParallel, this.settings.callTimeoutMs, this.meter);
  }

  private undici(): boolean {
    return isTuned(this.settings.variant, 'undici-pool');
  }

  shared(): Connection {
    return this.sharedConnection;
  }

  openFresh(): Connection {
    if (this.undici()) return this.undiciConnection();
    // Same settings as Node 20's global agent, but its own socket pool, so the first call connects.
    const agent = new Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5000 });
    return this.connect(agent, async () => agent.destroy());
  }

  takeReplies(): ReplyTally {
    return this.meter.take();
  }

  async readServerMetrics(resetPeak: boolean): Promise<ProcessSample> {
    const url = `${this.settings.serverAUrl}/metrics?resetPeak=${resetPeak}`;
    return (await firstValueFrom(this.http.get<ProcessSample>(url))).data;
  }

  /**
   * axios's default response transform for JSON is JSON.parse of the body text; this one does the
   * same parse and times it, and takes the body size from Content-Length (Express always sends it).
   */
  private timedParse = (data: unknown, headers: AxiosResponseHeaders | RawAxiosResponseHeaders): unknown => {
    if (typeof data !== 'string') return data;
    const started = performance.now();
    const value: unknown = JSON.parse(data);
    this.meter.record(Number(headers['content-length'] ?? Number.NaN), performance.now() - started);
    return value;
  };

  private connect(agent: Agent | undefined, close: () => Promise<void>): Connection {
    const base = `${this.settings.serverAUrl}${this.routePrefix}`;
    const config: AxiosRequestConfig = {
      transformResponse: this.timedParse,
      ...(agent ? { httpAgent: agent } : {}),
    };
    // `rows` is a validated integer, so the URL cannot be steered elsewhere by a request.
    const one = (rows: number, timeout: number): Observable<unknown> =>
      this.http.get(base + rows, { ...config, timeout }).pipe(map((response) => response.data as unknown));
    return {
      // Lazy observables fired together and awaited together: the blog's forkJoin.
      fetchAll: (rows, requests, deadlineMs) => lastValueFrom(forkJoin(Array.from({ length: requests }, () => one(rows, deadlineMs)))),
      close,
    };
  }
}
