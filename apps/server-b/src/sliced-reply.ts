import { status, type ServerUnaryCall } from '@grpc/grpc-js';
import { RpcException } from '@nestjs/microservices';
import { grpcCodecFor, processSampler, type NestVariant } from '@bench/config';
import { encodeSamplesSliced, grpcCallSignalFor } from '@bench/proto';
import { noteAbandoned } from '@bench/samples';

/**
 * Runs `produce` with a signal that aborts when the call's deadline passes or it is cancelled; then the
 * work stops, is logged as `what` abandoned, and the call ends CANCELLED (grpc-js has already answered
 * DEADLINE_EXCEEDED to a caller whose deadline passed).
 */
export async function stopWithCall<T>(
  call: ServerUnaryCall<unknown, unknown>,
  count: number,
  what: string,
  produce: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const signal = grpcCallSignalFor(count, call);
  try {
    return await produce(signal);
  } catch (error) {
    if (!signal.aborted) throw error;
    noteAbandoned(what, signal.reason);
    throw new RpcException({ code: status.CANCELLED, message: (signal.reason as Error).message });
  }
}

/** GetSamples' reply as protobuf bytes, produced a slice at a time (encodeSamplesSliced) and stopped with the call. */
export function slicedSamplesReply(count: number, call: ServerUnaryCall<unknown, unknown>, variant: NestVariant, what: string): Promise<Buffer> {
  const phases = (phase: 'build' | 'encode', ms: number) => processSampler().addPhase(phase, ms);
  return stopWithCall(call, count, `${what} of ${count} rows`, (signal) => encodeSamplesSliced(count, signal, grpcCodecFor(variant), phases));
}
