import type { ClientProxy } from '@nestjs/microservices';
import type { ProcessSample, Settings } from '@bench/config';
import { plaintextToBroker } from './broker-security';
import { MicroserviceTransport, type MicroserviceClientOptions } from './microservice-transport';
import { ReplyMeter } from './reply-meter';
import { samplesPattern } from './samples-pattern';

/**
 * A Nest microservice transport through a broker (nest-redis, nest-nats, nest-rmq, nest-mqtt, nest-kafka).
 * Their Nest transports parse a reply's JSON before the deserializer and stringify it after the serializer
 * (Redis, RabbitMQ, MQTT), or in codecs of their client libraries (NATS, Kafka), so neither the server's
 * encoding nor the client's decoding can be timed through Nest's options yet: both are reported as not
 * measured (null), and so are the reply's bytes, never as 0. Under --security tls/mtls each refuses with
 * what TLS to its broker would take (broker-security.ts).
 */
export class BrokerTransport extends MicroserviceTransport {
  constructor(
    name: string,
    settings: Settings,
    client: (connection: 'shared' | 'fresh') => MicroserviceClientOptions,
    readMetrics: (resetPeak: boolean) => Promise<ProcessSample>,
    prepare?: (client: ClientProxy) => void,
  ) {
    super({ name, pattern: samplesPattern(settings), client: (connection) => plaintextToBroker(name, settings, client(connection)), meter: new ReplyMeter(), readMetrics, prepare, unmeasured: ['serverEncodeMs', 'clientDecodeMs'] });
  }
}
