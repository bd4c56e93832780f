import { ClientRedis } from '@nestjs/microservices';

/** What ioredis's client is to this file: its PUBLISH, which returns a promise Nest's ClientRedis does not keep. */
interface Publisher {
  publish(...args: unknown[]): Promise<unknown> | undefined;
}

/**
 * Nest's Redis client, its requests' PUBLISH guarded: Nest's ClientRedis publishes without keeping ioredis's
 * promise, so when the connection closes under a request (Redis cutting off a subscriber past its output
 * buffer limit, the broker killed) the rejection ("Connection is closed.") is unhandled and ends the client's
 * process, every other transport's calls with it (measured: blog ①-3 through Redis, run 2026-11-29T01-14-16Z).
 * Here the rejection is caught; the call it belonged to ends at its deadline, naming the connection's state
 * (microservice-transport.ts). Both variants: it fixes a crash, it tunes nothing.
 */
export class GuardedClientRedis extends ClientRedis {
  override async createClient(): ReturnType<ClientRedis['createClient']> {
    const client = (await super.createClient()) as Publisher;
    const publish = client.publish.bind(client);
    client.publish = (...args: unknown[]) => {
      const sent = publish(...args);
      sent?.catch(() => undefined);
      return sent;
    };
    return client;
  }
}
