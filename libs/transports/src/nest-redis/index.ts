import type { TransportDefinition } from '../contract';
import { serverBMetrics } from '../common/server-b-metrics';
import { NestRedisTransport } from './client';
import { nestRedisServer } from './server';

/** nest-redis: Nest's Redis transport, requests and replies through Redis pub/sub. */
export const NEST_REDIS: TransportDefinition = {
  nest: ({ settings, grpc }) => new NestRedisTransport(settings, serverBMetrics(grpc)),
  server: nestRedisServer,
  broker: 'redis',
};
