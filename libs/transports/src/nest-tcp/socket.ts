import type { Type } from '@nestjs/common';
import type { Socket } from 'node:net';
import { JsonSocket, type TcpSocket } from '@nestjs/microservices';
import { isTuned, processSampler, TCP_FRAME_LIMIT_BYTES, type NestVariant } from '@bench/config';
import type { ReplyMeter } from '../common/reply-meter';

/**
 * Nest's TCP transport frames each message as `<length>#<JSON text>` in its JsonSocket: the JSON.parse of
 * a reply and the JSON.stringify of a reply happen there, after the serializer and before the deserializer,
 * so the phases are timed in a JsonSocket of our own (TcpOptions' `socketClass`, Nest's own hook for it)
 * that does exactly what Nest's does (same framing, same defaults) with a timer around the two steps.
 */

/** What a variant changes on nest-tcp's sockets: Nagle off (tcp-no-delay), JsonSocket's limits raised (tcp-frame-limits). */
export interface TcpSocketTuning {
  noDelay: boolean;
  /** JsonSocket's own options (Nest passes none to a socketClass of ours, so the class passes them itself); undefined: Nest's defaults. */
  limits: { maxBufferSize: number; maxSendBufferSize: number } | undefined;
}

export function tcpSocketTuning(variant: NestVariant): TcpSocketTuning {
  return {
    noDelay: isTuned(variant, 'tcp-no-delay'),
    limits: isTuned(variant, 'tcp-frame-limits') ? { maxBufferSize: TCP_FRAME_LIMIT_BYTES, maxSendBufferSize: TCP_FRAME_LIMIT_BYTES } : undefined,
  };
}

/** Nest's JsonSocket with the variant's tuning applied to the socket it wraps (before it connects, on the client: Node keeps the setting). */
function tunedJsonSocket(tuning: TcpSocketTuning): typeof JsonSocket {
  return class TunedJsonSocket extends JsonSocket {
    constructor(socket: Socket) {
      super(socket, tuning.limits);
      if (tuning.noDelay) socket.setNoDelay(true);
    }
  };
}

/** The client's socket: each message it receives (a reply) is parsed under a timer, its length and time recorded on `meter`. */
export function meteredJsonSocket(meter: ReplyMeter, tuning: TcpSocketTuning): Type<TcpSocket> {
  return class MeteredJsonSocket extends tunedJsonSocket(tuning) {
    protected override emitMessage(data: string): void {
      const started = performance.now();
      super.emitMessage(data);
      // The frame's length in characters: bytes on the wire for the rows' ASCII text.
      meter.record(data.length, performance.now() - started);
    }
  };
}

/**
 * server-b's socket: each reply's JSON.stringify and framing (and its hand-over to the socket, which copies
 * the text to bytes) counted as the server's encode phase, as server-a's timed res.json counts its stringify.
 */
export function timedJsonSocket(tuning: TcpSocketTuning): Type<TcpSocket> {
  return class TimedJsonSocket extends tunedJsonSocket(tuning) {
    protected override handleSend(message: unknown, callback?: (err?: unknown) => void): void {
      const started = performance.now();
      super.handleSend(message, callback);
      processSampler().addPhase('encode', performance.now() - started);
    }
  };
}
