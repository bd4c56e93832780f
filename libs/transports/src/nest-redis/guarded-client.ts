import { ClientRedis } from '@nestjs/microservices';

/** The ioredis commands Nest's ClientRedis calls without keeping the promise they return. */
const UNKEPT = ['publish', 'subscribe', 'unsubscribe'] as const;

type Commands = Record<(typeof UNKEPT)[number], (...args: unknown[]) => Promise<unknown> | undefined>;

/**
 * Nest's Redis client, the commands it sends without keeping ioredis's promise guarded: its requests' PUBLISH,
 * and the UNSUBSCRIBE of a request's teardown (a call given up at its deadline). When the connection closes
 * under them (Redis cutting off a subscriber past its output buffer limit, the broker killed), the rejection
 * ("Connection is closed.") was unhandled and ended the client's process, every other transport's calls with
 * it (measured: blog ①-3 through Redis, run 2026-11-29T01-14-16Z). Here it is caught; the call it belonged to
 * ends at its deadline, naming the connection's state (microservice-transport.ts). Both variants: it fixes a
 * crash, it tunes nothing.
 */
export class GuardedClientRedis extends ClientRedis {
  override async createClient(): ReturnType<ClientRedis['createClient']> {
    const client = (await super.createClient()) as Commands;
    for (const name of UNKEPT) {
      const command = client[name].bind(client);
      client[name] = (...args: unknown[]) => {
        const sent = command(...args);
        sent?.catch(() => undefined);
        return sent;
      };
    }
    return client;
  }
}
