import type { BrokerRecord } from '../contract';

/** The jars tools/bench/maven/kafka/pom.xml resolves (test/brokers/install.spec.ts keeps the two equal). */
export const KAFKA: BrokerRecord = {
  kind: 'kafka',
  name: 'Apache Kafka',
  source: {
    kind: 'maven',
    artifacts: [
      // The broker (KRaft), its storage tool and the Scala it runs on.
      'org.apache.kafka:kafka_2.13:4.1.1',
      // The console producer and consumer, and JmxTool, which reads the broker's counters.
      'org.apache.kafka:kafka-tools:4.1.1',
      // log4j2 behind SLF4J, so the broker's log goes to its folder.
      'org.apache.logging.log4j:log4j-slf4j2-impl:2.24.3',
    ],
  },
  version: '4.1.1',
  transports: ['nest-kafka'],
};
