import type { ProcessSample, Settings } from '@bench/config';
import { BrokerTransport } from '../common/broker-transport';
import { nestMqttClientOptions } from './options';

/** Transport nest-mqtt: ClientProxy.send() through an MQTT broker (Nest's MQTT transport), answered by server-b's @MessagePattern. */
export class NestMqttTransport extends BrokerTransport {
  constructor(settings: Settings, readMetrics: (resetPeak: boolean) => Promise<ProcessSample>) {
    super('nest-mqtt', settings, () => nestMqttClientOptions(settings), readMetrics);
  }
}
