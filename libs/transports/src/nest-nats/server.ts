import { ServerNats, type MicroserviceOptions } from '@nestjs/microservices';
import type { Settings } from '@bench/config';
import { replyingRefusals } from '../common/broker-refusals';
import { natsOptions } from './options';

/**
 * Nest's NATS server, a reply over the NATS server's max_payload (1 MB by default) answered with the NATS
 * client's own reason ("'payload' max_payload size exceeded") instead of ending the process (common/broker-refusals.ts).
 */
class RefusalReplyingServerNats extends ServerNats {
  override getPublisher(...args: Parameters<ServerNats['getPublisher']>): ReturnType<ServerNats['getPublisher']> {
    return replyingRefusals(super.getPublisher(...args), 'NATS');
  }
}

/**
 * server-b's binding of nest-nats: Nest's NATS transport on the broker at NATS_URL, Nest's defaults; with
 * MICROSERVICE_GROUP, its subscriptions join that queue group, so the NATS server gives each request to one
 * replica (without one, every replica subscribed receives every request and all answer).
 */
export function nestNatsServer(settings: Settings): MicroserviceOptions {
  const nats = natsOptions(settings);
  if (!nats.ok) throw new Error(`nest-nats: ${nats.reason}`);
  const group = settings.microservices.group;
  return { strategy: new RefusalReplyingServerNats(group === '' ? nats.options : { ...nats.options, queue: group }) };
}
