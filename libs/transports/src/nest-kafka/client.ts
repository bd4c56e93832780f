import type { ProcessSample, Settings } from '@bench/config';
import { BrokerTransport } from '../common/broker-transport';
import { nestKafkaClientOptions, subscribeToReplies } from './options';

/** Transport nest-kafka: ClientProxy.send() through Kafka topics (Nest's Kafka transport), answered by server-b's @MessagePattern. */
export class NestKafkaTransport extends BrokerTransport {
  constructor(settings: Settings, readMetrics: (resetPeak: boolean) => Promise<ProcessSample>) {
    super('nest-kafka', settings, (connection) => nestKafkaClientOptions(settings, connection), readMetrics, subscribeToReplies(settings));
  }
}
