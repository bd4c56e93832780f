import { Transport } from '@nestjs/microservices';
import { BROKER_URL_ENV, isTuned, type Settings } from '@bench/config';
import { brokerUrl } from '../common/broker-refusals';
import type { MicroserviceClientOptions } from '../common/microservice-transport';
import { namespaced } from '../common/samples-pattern';

/** Nest's RabbitMQ default queue, taken into the set's namespace so sets sharing a broker keep their requests apart. */
const NEST_DEFAULT_QUEUE = 'default';

/**
 * Nest's RabbitMQ transport options for the broker at RABBITMQ_URL: its default queue (in the set's namespace),
 * Nest's defaults otherwise (noAck, no prefetch limit), but for rmq-no-delay (amqplib's noDelay on its socket).
 */
export function rmqOptions(settings: Settings): { ok: true; options: { urls: string[]; queue: string; socketOptions?: { connectionOptions: { noDelay: boolean } } } } | { ok: false; reason: string } {
  const url = brokerUrl(settings.microservices.brokers.rabbitmq, BROKER_URL_ENV.rabbitmq);
  if (!url.ok) return url;
  const noDelay = isTuned(settings.variant, 'rmq-no-delay') ? { socketOptions: { connectionOptions: { noDelay: true } } } : {};
  return { ok: true, options: { urls: [url.url], queue: namespaced(settings, NEST_DEFAULT_QUEUE), ...noDelay } };
}

/** nest-rmq's ClientProxy options: requests on the queue, replies on RabbitMQ's direct reply-to (Nest's default). */
export function nestRmqClientOptions(settings: Settings): MicroserviceClientOptions {
  const rmq = rmqOptions(settings);
  return rmq.ok ? { ok: true, options: { transport: Transport.RMQ, options: rmq.options } } : rmq;
}
