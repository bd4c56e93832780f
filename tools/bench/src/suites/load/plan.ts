/** The load suite's sweep, as data: who is loaded, how many calls in flight, how many rows per call. */
export type LoadTarget = 'http-json' | 'grpc' | NestLoadTarget;
/** Nest's microservice transports (libs/transports' names), each answered by server-b's @MessagePattern. */
export type NestLoadTarget = 'nest-tcp' | 'nest-redis' | 'nest-nats' | 'nest-rmq' | 'nest-mqtt' | 'nest-kafka';

const nestTarget = (id: NestLoadTarget, through: string): { id: LoadTarget; description: string } => ({
  id,
  description: `the samples pattern on server-b through ${through}, driven by our closed loop of N concurrent ClientProxy.send() calls on one ClientProxy (the Nest client's own transport)`,
});

export const LOAD_TARGETS: readonly { id: LoadTarget; description: string }[] = Object.freeze([
  { id: 'http-json', description: 'GET /server-a/:rows on server-a, driven by autocannon (one HTTP/1.1 connection per concurrent call)' },
  { id: 'grpc', description: 'GetSamples on server-b, driven by our closed loop of N concurrent calls on one channel (grpc-js)' },
  nestTarget('nest-tcp', "Nest's TCP transport (one connection, no broker)"),
  nestTarget('nest-redis', 'Redis pub/sub'),
  nestTarget('nest-nats', 'NATS request-reply'),
  nestTarget('nest-rmq', 'a RabbitMQ queue (replies by direct reply-to)'),
  nestTarget('nest-mqtt', 'MQTT topics (Mosquitto)'),
  nestTarget('nest-kafka', 'Kafka topics (KRaft)'),
]);

/** What bench:load loads unless told otherwise (--transports). */
export const DEFAULT_LOAD_TARGETS: readonly LoadTarget[] = Object.freeze(['http-json', 'grpc']);

export const isNestTarget = (target: LoadTarget): target is NestLoadTarget => target.startsWith('nest-');

export const LOAD_CONCURRENCY: readonly number[] = Object.freeze([1, 10, 100]);
export const LOAD_ROWS: readonly number[] = Object.freeze([1, 100]);

/** A load generator using at least this share of one core for its own work is probably the bottleneck. */
export const GENERATOR_BOUND_SHARE = 0.9;
