import type { ProcessSample, Settings } from '@bench/config';
import { MicroserviceTransport } from '../common/microservice-transport';
import { ReplyMeter } from '../common/reply-meter';
import { samplesPattern } from '../common/samples-pattern';
import { nestTcpClientOptions } from './options';

/** Transport nest-tcp: ClientProxy.send() over Nest's TCP transport (JSON frames on one socket), answered by server-b's @MessagePattern. */
export class NestTcpTransport extends MicroserviceTransport {
  constructor(settings: Settings, readMetrics: (resetPeak: boolean) => Promise<ProcessSample>, meter = new ReplyMeter()) {
    super({ name: 'nest-tcp', pattern: samplesPattern(settings), client: () => nestTcpClientOptions(settings, meter), meter, readMetrics });
  }
}
