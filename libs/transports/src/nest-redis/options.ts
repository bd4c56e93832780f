import type { CustomClientOptions } from '@nestjs/microservices';
import { BROKER_URL_ENV, type Settings } from '@bench/config';
import { brokerUrl } from '../common/broker-refusals';
import type { MicroserviceClientOptions } from '../common/microservice-transport';
import { GuardedClientRedis } from './guarded-client';

/** Nest's Redis transport options (host and port; Nest's and ioredis's defaults otherwise) for the broker at REDIS_URL. */
export function redisOptions(settings: Settings): { ok: true; options: { host: string; port: number } } | { ok: false; reason: string } {
  const url = brokerUrl(settings.microservices.brokers.redis, BROKER_URL_ENV.redis);
  if (!url.ok) return url;
  const { hostname, port } = new URL(url.url);
  return { ok: true, options: { host: hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(port || 6379) } };
}

/**
 * nest-redis's ClientProxy options: requests published on the pattern's channel, replies on `<pattern>.reply`,
 * through Nest's ClientRedis with its PUBLISH guarded against a closed connection (guarded-client.ts).
 */
export function nestRedisClientOptions(settings: Settings): MicroserviceClientOptions {
  const redis = redisOptions(settings);
  return redis.ok ? { ok: true, options: { customClass: GuardedClientRedis as unknown as CustomClientOptions['customClass'], options: redis.options } } : redis;
}
