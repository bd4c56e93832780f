import type { Type } from '@nestjs/common';
import { JsonSocket, type TcpSocket } from '@nestjs/microservices';
import { processSampler } from '@bench/config';
import type { ReplyMeter } from '../common/reply-meter';

/**
 * Nest's TCP transport frames each message as `<length>#<JSON text>` in its JsonSocket: the JSON.parse of
 * a reply and the JSON.stringify of a reply happen there, after the serializer and before the deserializer,
 * so the phases are timed in a JsonSocket of our own (TcpOptions' `socketClass`, Nest's own hook for it)
 * that does exactly what Nest's does (same framing, same defaults) with a timer around the two steps.
 */

/** The client's socket: each message it receives (a reply) is parsed under a timer, its length and time recorded on `meter`. */
export function meteredJsonSocket(meter: ReplyMeter): Type<TcpSocket> {
  return class MeteredJsonSocket extends JsonSocket {
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
export class TimedJsonSocket extends JsonSocket {
  protected override handleSend(message: unknown, callback?: (err?: unknown) => void): void {
    const started = performance.now();
    super.handleSend(message, callback);
    processSampler().addPhase('encode', performance.now() - started);
  }
}
