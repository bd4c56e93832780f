import type { ProcessSample, Settings } from '@bench/config';
import { BrokerTransport } from '../common/broker-transport';
import { nestNatsClientOptions } from './options';

/** Transport nest-nats: ClientProxy.send() as NATS request-reply (Nest's NATS transport), answered by server-b's @MessagePattern. */
export class NestNatsTransport extends BrokerTransport {
  constructor(settings: Settings, readMetrics: (resetPeak: boolean) => Promise<ProcessSample>) {
    super('nest-nats', settings, () => nestNatsClientOptions(settings), readMetrics);
  }
}
