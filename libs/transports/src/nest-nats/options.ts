import { Transport } from '@nestjs/microservices';
import { BROKER_URL_ENV, type Settings } from '@bench/config';
import { brokerUrl } from '../common/broker-refusals';
import type { MicroserviceClientOptions } from '../common/microservice-transport';

/** Nest's NATS transport options for the broker at NATS_URL (Nest's and the NATS client's defaults otherwise: no queue group). */
export function natsOptions(settings: Settings): { ok: true; options: { servers: string[] } } | { ok: false; reason: string } {
  const url = brokerUrl(settings.microservices.brokers.nats, BROKER_URL_ENV.nats);
  return url.ok ? { ok: true, options: { servers: [url.url] } } : url;
}

/** nest-nats's ClientProxy options: a request on the pattern's subject, its reply on the request's inbox. */
export function nestNatsClientOptions(settings: Settings): MicroserviceClientOptions {
  const nats = natsOptions(settings);
  return nats.ok ? { ok: true, options: { transport: Transport.NATS, options: nats.options } } : nats;
}
