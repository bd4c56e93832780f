import { ClientProxyFactory, type ClientOptions, type ClientProxy, type CustomClientOptions } from '@nestjs/microservices';
import { lastValueFrom, throwError, timeout } from 'rxjs';
import type { ProcessSample } from '@bench/config';
import type { Connection, ReplyTally, RowTransport } from '../contract';
import type { ReplyMeter } from './reply-meter';
import type { SamplesMessage } from './samples-pattern';

/** What a Nest microservice transport is made of: its client options (options.ts; a custom class of Nest's own client where a tuning needs one), or why it cannot be made. */
export type MicroserviceClientOptions = { ok: true; options: ClientOptions | CustomClientOptions } | { ok: false; reason: string };

/** What every Nest microservice transport's folder gives the one client below. */
export interface MicroserviceTransportParts {
  /** The transport's name in the registry. */
  name: string;
  /** The pattern it sends (samplesPattern: SAMPLES_PATTERN in the set's namespace). */
  pattern: string;
  /** Its ClientProxy options from the settings (options.ts), for the shared connection or a fresh one (the cold call's). */
  client: (connection: 'shared' | 'fresh') => MicroserviceClientOptions;
  /** What a client needs before its first send (Kafka: subscribing to the replies' topic). */
  prepare?: (client: ClientProxy) => void;
  /** Where its socket class, serializer or deserializer record each decoded reply. */
  meter: ReplyMeter;
  /** server-b's own reading (it serves every Nest transport beside gRPC). */
  readMetrics: (resetPeak: boolean) => Promise<ProcessSample>;
  /** Phases its Nest transport hides (it encodes or decodes outside any serializer or socket class). */
  unmeasured?: readonly ('serverEncodeMs' | 'clientDecodeMs')[];
}

/** A reply Nest delivers as an error: RpcException's object, Nest's "no matching message handler" string, or an Error. */
function callError(name: string, err: unknown): Error {
  if (err instanceof Error) return new Error(`${name}: ${err.message}`);
  if (typeof err === 'string') return new Error(`${name}: ${err}`);
  const fields = (err ?? {}) as { code?: unknown; message?: unknown; status?: unknown };
  const code = fields.code === undefined ? '' : ` (code ${String(fields.code)})`;
  return new Error(`${name}: ${typeof fields.message === 'string' ? fields.message : JSON.stringify(err)}${code}`);
}

/**
 * A Nest microservice transport as the one contract has it: ClientProxy.send() of the samples pattern, one
 * message per request, fired together and awaited together (the blog's forkJoin). The shared connection
 * is one ClientProxy for the client's lifetime; a cold call gets a ClientProxy of its own, closed after.
 * Every request carries the call's deadline and is given up at it (rxjs timeout: Nest removes its
 * pending reply), so a server or broker that never answers fails the call instead of hanging it.
 */
export class MicroserviceTransport implements RowTransport {
  readonly name: string;
  readonly unmeasured?: readonly ('serverEncodeMs' | 'clientDecodeMs')[];
  private sharedClient: ClientProxy | string | null = null;
  private sharedConnection: Connection | null = null;

  constructor(private readonly parts: MicroserviceTransportParts) {
    this.name = parts.name;
    if (parts.unmeasured) this.unmeasured = parts.unmeasured;
  }

  shared(): Connection {
    if (this.sharedConnection === null) {
      const client = this.makeClient('shared');
      this.sharedClient = client;
      this.sharedConnection = this.connect(client, async () => undefined);
    }
    return this.sharedConnection;
  }

  openFresh(): Connection {
    const client = this.makeClient('fresh');
    return this.connect(client, async () => (typeof client === 'string' ? undefined : client.close()));
  }

  takeReplies(): ReplyTally {
    return this.parts.meter.take();
  }

  readServerMetrics(resetPeak: boolean): Promise<ProcessSample> {
    return this.parts.readMetrics(resetPeak);
  }

  /** Nest calls this on shutdown: an open socket or broker connection would keep the process alive. */
  async close(): Promise<void> {
    if (typeof this.sharedClient === 'object') await this.sharedClient?.close();
    this.sharedClient = null;
    this.sharedConnection = null;
  }

  /**
   * A ClientProxy of the transport's options, or why there is none (its broker's URL missing, its broker
   * client library not installed: Nest loads it as the ClientProxy is made): every call then fails saying so.
   */
  private makeClient(connection: 'shared' | 'fresh'): ClientProxy | string {
    const options = this.parts.client(connection);
    if (!options.ok) return options.reason;
    try {
      const made = options.options;
      const client = 'customClass' in made ? ClientProxyFactory.create(made) : ClientProxyFactory.create(made);
      this.parts.prepare?.(client);
      this.watch(client);
      return client;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /** The last status each client's connection reported (Nest's ClientProxy.status), and since when: what a call past its deadline names. */
  private readonly statuses = new WeakMap<ClientProxy, { status: string; since: number }>();

  private watch(client: ClientProxy): void {
    client.status.subscribe({ next: (status) => this.statuses.set(client, { status: String(status), since: performance.now() }), error: () => undefined });
  }

  /** Why a call may have had no reply: its connection's state when not connected (a broker gone, reconnecting), else ''. */
  private connectionState(client: ClientProxy): string {
    const last = this.statuses.get(client);
    if (!last || last.status === 'connected') return '';
    return `; its connection was ${last.status} (for the last ${Math.round(performance.now() - last.since)} ms)`;
  }

  /** A connection on `client`; without one, every call fails with the reason it could not be made. */
  private connect(client: ClientProxy | string, close: () => Promise<void>): Connection {
    const { name, pattern } = this.parts;
    if (typeof client === 'string') return { fetchAll: () => Promise.reject(new Error(`${name}: ${client}`)), close };
    const one = (rows: number, deadlineMs: number): Promise<unknown> => {
      const message: SamplesMessage = { count: rows, deadlineMs: Math.max(1, Math.round(deadlineMs)) };
      return lastValueFrom(
        client.send<unknown, SamplesMessage>(pattern, message).pipe(
          timeout({ first: deadlineMs, with: () => throwError(() => new Error(`DEADLINE_EXCEEDED: no reply within the call's deadline of ${deadlineMs} ms${this.connectionState(client)}`)) }),
        ),
      ).catch((error: unknown) => {
        throw callError(name, error);
      });
    };
    return { fetchAll: (rows, requests, deadlineMs) => Promise.all(Array.from({ length: requests }, () => one(rows, deadlineMs))), close };
  }
}
