import type { TransportDefinition } from '../contract';
import { serverBMetrics } from '../common/server-b-metrics';
import { NestKafkaTransport } from './client';
import { nestKafkaServer } from './server';

/** nest-kafka: Nest's Kafka transport, requests and replies as Kafka topics (KRaft broker). */
export const NEST_KAFKA: TransportDefinition = {
  nest: ({ settings, grpc }) => new NestKafkaTransport(settings, serverBMetrics(grpc)),
  server: nestKafkaServer,
  broker: 'kafka',
};
