import type { TransportDefinition } from '../contract';
import { serverBMetrics } from '../common/server-b-metrics';
import { NestNatsTransport } from './client';
import { nestNatsServer } from './server';

/** nest-nats: Nest's NATS transport, request-reply through a NATS server. */
export const NEST_NATS: TransportDefinition = {
  nest: ({ settings, grpc }) => new NestNatsTransport(settings, serverBMetrics(grpc)),
  server: nestNatsServer,
  broker: 'nats',
};
