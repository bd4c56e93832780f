import { Transport } from '@nestjs/microservices';
import type { Settings } from '@bench/config';
import type { MicroserviceClientOptions } from '../common/microservice-transport';
import type { ReplyMeter } from '../common/reply-meter';
import { meteredJsonSocket, tcpSocketTuning } from './socket';

/** host and port of a `host:port` (an IPv6 host in brackets). */
export function hostPort(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(':');
  return { host: address.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: Number(address.slice(at + 1)) };
}

/**
 * nest-tcp's ClientProxy options: Nest's TCP transport to server-b's TCP listener (NEST_TCP_URL) with
 * Nest's defaults (framing, buffer limits, Nagle on) unless the variant tunes them (tcp-no-delay, tcp-frame-limits);
 * the socket class is ours, to time the replies' decoding and apply those tunings.
 * Plaintext only for now: under --security tls/mtls the transport refuses rather than dial in the clear.
 */
export function nestTcpClientOptions(settings: Settings, meter: ReplyMeter): MicroserviceClientOptions {
  if (settings.security.mode !== 'plain') return { ok: false, reason: `runs in plaintext only (security ${settings.security.mode} asked)` };
  return { ok: true, options: { transport: Transport.TCP, options: { ...hostPort(settings.microservices.tcpUrl), socketClass: meteredJsonSocket(meter, tcpSocketTuning(settings.variant)) } } };
}
