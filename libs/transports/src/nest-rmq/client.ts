import type { ProcessSample, Settings } from '@bench/config';
import { BrokerTransport } from '../common/broker-transport';
import { nestRmqClientOptions } from './options';

/** Transport nest-rmq: ClientProxy.send() through a RabbitMQ queue (Nest's RMQ transport), answered by server-b's @MessagePattern. */
export class NestRmqTransport extends BrokerTransport {
  constructor(settings: Settings, readMetrics: (resetPeak: boolean) => Promise<ProcessSample>) {
    super('nest-rmq', settings, () => nestRmqClientOptions(settings), readMetrics);
  }
}
