import type { TransportDefinition } from '../contract';
import { serverBMetrics } from '../common/server-b-metrics';
import { NestRmqTransport } from './client';
import { nestRmqServer } from './server';

/** nest-rmq: Nest's RabbitMQ transport, requests on a queue, replies by direct reply-to. */
export const NEST_RMQ: TransportDefinition = {
  nest: ({ settings, grpc }) => new NestRmqTransport(settings, serverBMetrics(grpc)),
  server: nestRmqServer,
  broker: 'rabbitmq',
};
