import type { ProcessSample, Settings } from '@bench/config';
import { BrokerTransport } from '../common/broker-transport';
import { nestRedisClientOptions } from './options';

/** Transport nest-redis: ClientProxy.send() through Redis pub/sub (Nest's Redis transport), answered by server-b's @MessagePattern. */
export class NestRedisTransport extends BrokerTransport {
  constructor(settings: Settings, readMetrics: (resetPeak: boolean) => Promise<ProcessSample>) {
    super('nest-redis', settings, () => nestRedisClientOptions(settings), readMetrics);
  }
}
