import { ServerKafka, type MicroserviceOptions } from '@nestjs/microservices';
import type { Settings } from '@bench/config';
import { replyingRefusals } from '../common/broker-refusals';
import { kafkaOptions } from './options';

/**
 * Nest's Kafka server, a reply over the broker's message.max.bytes (≈ 1 MB by default) answered with
 * KafkaJS's own reason instead of ending the process (common/broker-refusals.ts).
 */
class RefusalReplyingServerKafka extends ServerKafka {
  override getPublisher(...args: Parameters<ServerKafka['getPublisher']>): ReturnType<ServerKafka['getPublisher']> {
    return replyingRefusals(super.getPublisher(...args) as (packet: Record<string, unknown>) => Promise<never>, 'Kafka');
  }
}

/** server-b's binding of nest-kafka: Nest's Kafka transport on the brokers at KAFKA_BROKERS, Nest's defaults. */
export function nestKafkaServer(settings: Settings): MicroserviceOptions {
  const kafka = kafkaOptions(settings, 'server');
  if (!kafka.ok) throw new Error(`nest-kafka: ${kafka.reason}`);
  return { strategy: new RefusalReplyingServerKafka(kafka.options) };
}
