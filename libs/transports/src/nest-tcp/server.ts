import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import type { Settings } from '@bench/config';
import { tcpSocketTuning, timedJsonSocket } from './socket';

/** server-b's binding of nest-tcp: Nest's TCP transport on HOST:SERVER_B_TCP_PORT, Nest's defaults (or the variant's tcp-no-delay, tcp-frame-limits), replies' encoding timed. */
export function nestTcpServer(settings: Settings): MicroserviceOptions {
  return { transport: Transport.TCP, options: { host: settings.host, port: settings.microservices.tcpPort, socketClass: timedJsonSocket(tcpSocketTuning(settings.variant)) } };
}
