import { Agent } from 'node:http';
import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { firstValueFrom, map } from 'rxjs';
import { SETTINGS, type ProcessSample, type Settings } from '@bench/config';
import { ReplyMeter } from '@bench/proto';
import type { Connection, RowTransport } from './row-transport';

/** server-a over HTTP/1.1 with `@nestjs/axios` HttpService and its default agent, as the blog did. */
@Injectable()
export class JsonTransport implements RowTransport {
  readonly name = 'json' as const;
  private readonly meter = new ReplyMeter();
  private readonly sharedConnection: Connection;

  constructor(
    private readonly http: HttpService,
    @Inject(SETTINGS) private readonly settings: Settings,
  ) {
    this.sharedConnection = this.connect(undefined, async () => undefined);
  }

  shared(): Connection {
    return this.sharedConnection;
  }

  openFresh(): Connection {
    // Same settings as Node 20's global agent, but its own socket pool, so the first call connects.
    const agent = new Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5000 });
    return this.connect(agent, async () => agent.destroy());
  }

  takeReplyBytes(): { messages: number; bytes: number } {
    return this.meter.take();
  }

  async readServerMetrics(resetPeak: boolean): Promise<ProcessSample> {
    const url = `${this.settings.serverAUrl}/metrics?resetPeak=${resetPeak}`;
    return (await firstValueFrom(this.http.get<ProcessSample>(url))).data;
  }

  private connect(agent: Agent | undefined, close: () => Promise<void>): Connection {
    const base = `${this.settings.serverAUrl}/server-a/`;
    return {
      // `rows` is a validated integer, so the URL cannot be steered elsewhere by a request.
      getSamples: (rows: number) =>
        this.http.get(base + rows, agent ? { httpAgent: agent } : undefined).pipe(
          map((response) => {
            // Express always sends Content-Length for res.json; without it the size is unknown (NaN).
            this.meter.record(Number(response.headers['content-length'] ?? Number.NaN));
            return response.data as unknown;
          }),
        ),
      close,
    };
  }
}
