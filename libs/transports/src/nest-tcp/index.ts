import type { TransportDefinition } from '../contract';
import { serverBMetrics } from '../common/server-b-metrics';
import { NestTcpTransport } from './client';
import { nestTcpServer } from './server';

/** nest-tcp: Nest's default microservice transport, TCP without a broker, to server-b's TCP listener (no broker). */
export const NEST_TCP: TransportDefinition = {
  nest: ({ settings, grpc }) => new NestTcpTransport(settings, serverBMetrics(grpc)),
  server: nestTcpServer,
};
