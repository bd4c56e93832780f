import { describeBrokerQuickCase } from '../quick-case';

// At its defaults a Kafka broker refuses a record over message.max.bytes (1,048,588): ①-2's reply fails with
// KafkaJS's reason; a cold call joins a consumer group of its own (group.initial.rebalance.delay.ms, 3 s).
describeBrokerQuickCase('nest-kafka', 'kafka', ['kafkajs'], {
  refuses: { overBytes: 1_048_588, reason: /Kafka refused the reply: The request included a message larger than the max message size/ },
  timeoutMs: 60_000,
});
