import { ServerRMQ, type MicroserviceOptions } from '@nestjs/microservices';
import type { Settings } from '@bench/config';
import { replyingRefusals } from '../common/broker-refusals';
import { rmqOptions } from './options';

/** Nest's RabbitMQ server, a reply its channel refuses at once answered with the reason (common/broker-refusals.ts). */
class RefusalReplyingServerRMQ extends ServerRMQ {
  override sendMessage<T = unknown>(message: T, replyTo: unknown, correlationId: string, context: Parameters<ServerRMQ['sendMessage']>[3]): void {
    const send = (packet: Record<string, unknown>) => super.sendMessage(packet, replyTo, correlationId, context);
    replyingRefusals(send, 'RabbitMQ')(message as Record<string, unknown>);
  }
}

/** server-b's binding of nest-rmq: Nest's RabbitMQ transport on the broker at RABBITMQ_URL, Nest's defaults. */
export function nestRmqServer(settings: Settings): MicroserviceOptions {
  const rmq = rmqOptions(settings);
  if (!rmq.ok) throw new Error(`nest-rmq: ${rmq.reason}`);
  return { strategy: new RefusalReplyingServerRMQ(rmq.options) };
}
