import { ServerRedis, type MicroserviceOptions } from '@nestjs/microservices';
import type { Settings } from '@bench/config';
import { replyingRefusals } from '../common/broker-refusals';
import { redisOptions } from './options';

/** Nest's Redis server, its replies the broker refuses answered with Redis's reason (common/broker-refusals.ts). */
class RefusalReplyingServerRedis extends ServerRedis {
  override getPublisher(...args: Parameters<ServerRedis['getPublisher']>): ReturnType<ServerRedis['getPublisher']> {
    return replyingRefusals(super.getPublisher(...args), 'Redis');
  }
}

/** server-b's binding of nest-redis: Nest's Redis transport on the broker at REDIS_URL, Nest's defaults. */
export function nestRedisServer(settings: Settings): MicroserviceOptions {
  const redis = redisOptions(settings);
  if (!redis.ok) throw new Error(`nest-redis: ${redis.reason}`);
  return { strategy: new RefusalReplyingServerRedis(redis.options) };
}
