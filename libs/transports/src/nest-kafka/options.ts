import * as net from 'node:net';
import * as tls from 'node:tls';
import { Transport, type ClientKafka, type ClientProxy, type KafkaOptions } from '@nestjs/microservices';
import { BROKER_MESSAGE_LIMIT_BYTES, BROKER_URL_ENV, isTuned, type Settings } from '@bench/config';
import { brokerUrl } from '../common/broker-refusals';
import type { MicroserviceClientOptions } from '../common/microservice-transport';
import { namespaced, samplesPattern } from '../common/samples-pattern';

let freshClients = 0;

/** KafkaJS's default socket factory (keep-alive after 60 s), with Nagle's algorithm off (tuning kafka-no-delay). */
const noDelaySocketFactory: NonNullable<NonNullable<NonNullable<KafkaOptions['options']>['client']>['socketFactory']> = ({ host, port, ssl, onConnect }) => {
  const socket = ssl ? tls.connect({ host, port, ...(net.isIP(host) ? {} : { servername: host }), ...ssl }, onConnect) : net.connect({ host, port }, onConnect);
  socket.setKeepAlive(true, 60_000);
  socket.setNoDelay(true);
  return socket;
};

/**
 * Nest's Kafka transport options for the brokers at KAFKA_BROKERS (host:port,…): client and consumer group
 * ids in the set's namespace (Nest appends `-server` / `-client`); a cold call's client gets a group of its
 * own, or joining the shared client's group would take the replies' partition from it. Nest's and KafkaJS's
 * defaults otherwise, but for kafka-max-message (its consumers fetch up to the broker's raised message limit)
 * and kafka-no-delay (Nagle off on its sockets).
 */
export function kafkaOptions(settings: Settings, role: 'server' | 'shared' | 'fresh'): { ok: true; options: NonNullable<KafkaOptions['options']> } | { ok: false; reason: string } {
  const url = brokerUrl(settings.microservices.brokers.kafka, BROKER_URL_ENV.kafka);
  if (!url.ok) return url;
  const id = namespaced(settings, 'bench');
  return {
    ok: true,
    options: {
      client: { clientId: id, brokers: url.url.split(','), ...(isTuned(settings.variant, 'kafka-no-delay') ? { socketFactory: noDelaySocketFactory } : {}) },
      consumer: { groupId: id, ...(isTuned(settings.variant, 'kafka-max-message') ? { maxBytes: BROKER_MESSAGE_LIMIT_BYTES, maxBytesPerPartition: BROKER_MESSAGE_LIMIT_BYTES } : {}) },
      ...(role === 'fresh' ? { postfixId: `-client-fresh-${++freshClients}` } : {}),
    },
  };
}

/** nest-kafka's ClientProxy options: requests on the pattern's topic, replies on `<pattern>.reply`. */
export function nestKafkaClientOptions(settings: Settings, connection: 'shared' | 'fresh'): MicroserviceClientOptions {
  const kafka = kafkaOptions(settings, connection);
  return kafka.ok ? { ok: true, options: { transport: Transport.KAFKA, options: kafka.options } } : kafka;
}

/** A Kafka client must subscribe to the replies' topic before it connects (ClientKafka.subscribeToResponseOf). */
export function subscribeToReplies(settings: Settings): (client: ClientProxy) => void {
  return (client) => (client as ClientKafka).subscribeToResponseOf(samplesPattern(settings));
}
