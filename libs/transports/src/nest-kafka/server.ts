import { ServerKafka, type MicroserviceOptions } from '@nestjs/microservices';
import type { Settings } from '@bench/config';
import { replyingRefusals } from '../common/broker-refusals';
import { kafkaOptions } from './options';

/**
 * Nest's Kafka server, a reply over the broker's message.max.bytes (≈ 1 MB by default) answered with
 * KafkaJS's own reason instead of ending the process (common/broker-refusals.ts).
 */
class RefusalReplyingServerKafka extends ServerKafka {
  constructor(
    options: ConstructorParameters<typeof ServerKafka>[0],
    /** Partitions of the topics it creates (KAFKA_TOPIC_PARTITIONS); 0: the broker's default. */
    private readonly partitions: number,
  ) {
    super(options);
  }

  /**
   * Creates the patterns' request and reply topics before consuming them (each with KAFKA_TOPIC_PARTITIONS
   * partitions, else the broker's default, and its default replication; a topic that exists is left as it
   * is, so replicas starting together create it once): auto-creation answers the first consumer's and producer's metadata request
   * with UNKNOWN_TOPIC_OR_PARTITION, which ends Nest's listen, and the client's first subscribe too.
   */
  override async start(callback: () => void): Promise<void> {
    const admin = this.client!.admin();
    await admin.connect();
    try {
      const topics = [...this.getHandlers().keys()].flatMap((pattern) => [pattern, `${pattern}.reply`]);
      await admin.createTopics({ topics: topics.map((topic) => ({ topic, ...(this.partitions > 0 ? { numPartitions: this.partitions } : {}) })), waitForLeaders: true });
    } finally {
      await admin.disconnect();
    }
    return super.start(callback);
  }

  override getPublisher(...args: Parameters<ServerKafka['getPublisher']>): ReturnType<ServerKafka['getPublisher']> {
    return replyingRefusals(super.getPublisher(...args) as (packet: Record<string, unknown>) => Promise<never>, 'Kafka');
  }
}

/** server-b's binding of nest-kafka: Nest's Kafka transport on the brokers at KAFKA_BROKERS, Nest's defaults. */
export function nestKafkaServer(settings: Settings): MicroserviceOptions {
  const kafka = kafkaOptions(settings, 'server');
  if (!kafka.ok) throw new Error(`nest-kafka: ${kafka.reason}`);
  return { strategy: new RefusalReplyingServerKafka(kafka.options, settings.microservices.kafkaPartitions) };
}
