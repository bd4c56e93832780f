import { Agent } from 'node:http';
import type { HttpService } from '@nestjs/axios';
import { isTuned, type ProcessSample, type Settings } from '@bench/config';
import type { Connection, ReplyTally } from '../contract';
import { ReplyMeter } from './reply-meter';
import { GLOBAL_AGENT_OPTIONS, lookupFor, lookupOption } from './client-lookup';
import { clientTls, httpsAgentFor, tlsSessionsFor } from './client-tls';
import { serverAMetrics } from './server-a-metrics';
import { undiciConnection, type BodyDecoder } from './undici-pool';

/**
 * What server-a's HTTP/1.1 transports share (json, proto-h1): `@nestjs/axios` on Node's default agent
 * as the blog had it, or one undici pool when tuned (`undici-pool`); a meter of decoded replies; server
 * metrics from server-a's /metrics. Subclasses say how a call goes through axios and how a body decodes.
 */
export abstract class Http1Transport {
  protected readonly meter = new ReplyMeter();
  private sharedConnection: Connection | undefined;

  constructor(
    protected readonly http: HttpService,
    protected readonly settings: Settings,
    /** Where server-a serves these replies; the row count follows. */
    protected readonly routePrefix: string,
  ) {}

  /** The body decoder the undici pool uses. */
  protected abstract readonly decoder: BodyDecoder;

  /** A connection through axios, on `agent` (undefined: Node's global agent, as the blog). */
  protected abstract connect(agent: Agent | undefined, close: () => Promise<void>): Connection;

  private undici(): boolean {
    return isTuned(this.settings.variant, 'undici-pool');
  }

  private undiciConnection(): Connection {
    return undiciConnection(this.settings.serverAUrl, this.routePrefix, this.settings.maxParallel, this.settings.callTimeoutMs, this.meter, this.decoder, clientTls(this.settings), tlsSessionsFor(this.settings), lookupFor(this.settings));
  }

  shared(): Connection {
    // axios's shared agents are the HttpModule's (app.module.ts): Node's global one in cleartext unless tuned cached-lookup.
    this.sharedConnection ??= this.undici() ? this.undiciConnection() : this.connect(undefined, async () => undefined);
    return this.sharedConnection;
  }

  openFresh(): Connection {
    if (this.undici()) return this.undiciConnection();
    // Same settings as Node 20's global agent, but its own socket pool, so the first call connects.
    const agent = httpsAgentFor(this.settings) ?? new Agent({ ...GLOBAL_AGENT_OPTIONS, ...lookupOption(lookupFor(this.settings)) });
    return this.connect(agent, async () => agent.destroy());
  }

  takeReplies(): ReplyTally {
    return this.meter.take();
  }

  readServerMetrics(resetPeak: boolean): Promise<ProcessSample> {
    return serverAMetrics(this.http, this.settings)(resetPeak);
  }
}
