import { ConfigError } from './config-error';

/** The brokers Nest's microservice transports go through (issue #42): each transport's registration names the one it needs. */
export const BROKER_KINDS = Object.freeze(['redis', 'nats', 'rabbitmq', 'mosquitto', 'kafka'] as const);
export type BrokerKind = (typeof BROKER_KINDS)[number];

/** Environment variable of each broker's URL, as `startBrokers` hands them out (redis://, nats://, amqp://, mqtt://, host:port list). */
export const BROKER_URL_ENV: Readonly<Record<BrokerKind, string>> = Object.freeze({
  redis: 'REDIS_URL',
  nats: 'NATS_URL',
  rabbitmq: 'RABBITMQ_URL',
  mosquitto: 'MQTT_URL',
  kafka: 'KAFKA_BROKERS',
});

/** What each broker's URL must look like (Kafka: kafkajs's broker list, host:port[,host:port…]). */
const BROKER_URL_SHAPE: Readonly<Record<BrokerKind, { pattern: RegExp; example: string }>> = Object.freeze({
  redis: { pattern: /^rediss?:\/\/[^\s/]+(\/\d+)?$/, example: 'redis://127.0.0.1:6379' },
  nats: { pattern: /^(nats|tls):\/\/[^\s/]+$/, example: 'nats://127.0.0.1:4222' },
  rabbitmq: { pattern: /^amqps?:\/\/[^\s]+$/, example: 'amqp://127.0.0.1:5672' },
  mosquitto: { pattern: /^mqtts?:\/\/[^\s/]+$/, example: 'mqtt://127.0.0.1:1883' },
  kafka: { pattern: /^[^\s,:/]+:\d{1,5}(,[^\s,:/]+:\d{1,5})*$/, example: '127.0.0.1:9092' },
});

/** Where Nest's microservice transports meet: which server-b connects, its TCP listener, and the brokers' URLs. */
export interface MicroserviceSettings {
  /**
   * The Nest microservice transports server-b connects beside gRPC, by transport name (SERVER_B_MICROSERVICES,
   * comma-separated: `nest-tcp,nest-redis`); empty: gRPC alone, as the blog's server-b. Checked against
   * the registry by server-b at start (libs/transports names them; this library cannot).
   */
  serve: readonly string[];
  /** nest-tcp: the port server-b's Nest TCP listener binds on HOST (SERVER_B_TCP_PORT). */
  tcpPort: number;
  /** nest-tcp: where the client dials it, host:port (NEST_TCP_URL). */
  tcpUrl: string;
  /** Each broker's URL (BROKER_URL_ENV), null when not given: a transport through a missing one fails its calls naming the variable. */
  brokers: Readonly<Record<BrokerKind, string | null>>;
  /**
   * What a set's message patterns (and RabbitMQ queue) start with, `<namespace>.` (MICROSERVICE_NAMESPACE:
   * letters, digits, _ and -; empty: Nest's names as they are): the bench gives each set of apps its own,
   * so sets sharing one broker never answer each other's calls (every server subscribed to a Redis channel
   * or a NATS subject without a queue group would otherwise serve every set's requests).
   */
  namespace: string;
  /**
   * The replicas of one service share their requests by the broker's own mechanism under this group
   * (MICROSERVICE_GROUP: letters, digits, _ and -; empty: none): a NATS queue group, an MQTT shared
   * subscription (`$share/<group>/<topic>`). RabbitMQ's servers already compete for one queue and Kafka's
   * already form one consumer group; Redis pub/sub has no such mechanism (every subscriber gets every request).
   */
  group: string;
  /** Partitions of the Kafka topics server-b creates (KAFKA_TOPIC_PARTITIONS; 0: the broker's num.partitions): a consumer group spreads over at most this many servers. */
  kafkaPartitions: number;
}

export const MICROSERVICE_ENV = Object.freeze({ serve: 'SERVER_B_MICROSERVICES', tcpPort: 'SERVER_B_TCP_PORT', tcpUrl: 'NEST_TCP_URL', namespace: 'MICROSERVICE_NAMESPACE', group: 'MICROSERVICE_GROUP', kafkaPartitions: 'KAFKA_TOPIC_PARTITIONS' });

export const DEFAULT_MICROSERVICES: Readonly<MicroserviceSettings> = Object.freeze({
  serve: Object.freeze([]) as readonly string[],
  tcpPort: 3004,
  tcpUrl: '127.0.0.1:3004',
  brokers: Object.freeze({ redis: null, nats: null, rabbitmq: null, mosquitto: null, kafka: null }),
  namespace: '',
  group: '',
  kafkaPartitions: 0,
});

/** The microservice settings from the environment; a malformed value is a ConfigError naming its variable. */
export function loadMicroservices(read: (variable: string) => string | undefined, port: (variable: string, fallback: number) => number): MicroserviceSettings {
  const serveText = read(MICROSERVICE_ENV.serve);
  const serve = serveText === undefined ? [] : serveText.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const bad = serve.find((name) => !/^[a-z0-9-]+$/.test(name));
  if (bad !== undefined) throw new ConfigError(`${MICROSERVICE_ENV.serve} must list transport names (nest-tcp,nest-redis,…), got ${JSON.stringify(serveText)}`);
  const tcpUrl = read(MICROSERVICE_ENV.tcpUrl) ?? DEFAULT_MICROSERVICES.tcpUrl;
  if (!/^[^/\s:]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(tcpUrl)) {
    throw new ConfigError(`${MICROSERVICE_ENV.tcpUrl} must look like host:port (no scheme), got ${JSON.stringify(tcpUrl)}`);
  }
  const brokers = Object.fromEntries(
    BROKER_KINDS.map((kind) => {
      const url = read(BROKER_URL_ENV[kind]) ?? null;
      const shape = BROKER_URL_SHAPE[kind];
      if (url !== null && !shape.pattern.test(url)) throw new ConfigError(`${BROKER_URL_ENV[kind]} must look like ${shape.example}`); // the value is not echoed: a URL may carry a password
      return [kind, url];
    }),
  ) as Record<BrokerKind, string | null>;
  const namespace = read(MICROSERVICE_ENV.namespace) ?? '';
  if (!/^[A-Za-z0-9_-]{0,64}$/.test(namespace)) throw new ConfigError(`${MICROSERVICE_ENV.namespace} must be up to 64 letters, digits, _ or -, got ${JSON.stringify(namespace)}`);
  const group = read(MICROSERVICE_ENV.group) ?? '';
  if (!/^[A-Za-z0-9_-]{0,64}$/.test(group)) throw new ConfigError(`${MICROSERVICE_ENV.group} must be up to 64 letters, digits, _ or -, got ${JSON.stringify(group)}`);
  const partitionsText = read(MICROSERVICE_ENV.kafkaPartitions) ?? '0';
  if (!/^\d{1,4}$/.test(partitionsText) || Number(partitionsText) > 1000) throw new ConfigError(`${MICROSERVICE_ENV.kafkaPartitions} must be a whole number from 0 to 1000, got ${JSON.stringify(partitionsText)}`);
  return { serve: [...new Set(serve)], tcpPort: port(MICROSERVICE_ENV.tcpPort, DEFAULT_MICROSERVICES.tcpPort), tcpUrl, brokers, namespace, group, kafkaPartitions: Number(partitionsText) };
}
