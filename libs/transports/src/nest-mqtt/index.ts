import type { TransportDefinition } from '../contract';
import { serverBMetrics } from '../common/server-b-metrics';
import { NestMqttTransport } from './client';
import { nestMqttServer } from './server';

/** nest-mqtt: Nest's MQTT transport, requests and replies as MQTT topics. */
export const NEST_MQTT: TransportDefinition = {
  nest: ({ settings, grpc }) => new NestMqttTransport(settings, serverBMetrics(grpc)),
  server: nestMqttServer,
  broker: 'mosquitto',
};
