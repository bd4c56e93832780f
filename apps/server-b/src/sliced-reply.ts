import { status, type ServerUnaryCall } from '@grpc/grpc-js';
import { RpcException } from '@nestjs/microservices';
import { grpcCodecFor, processSampler, type NestVariant } from '@bench/config';
import { encodeSamplesSliced, grpcCallSignal } from '@bench/proto';
import { noteAbandoned } from '@bench/samples';

/**
 * GetSamples' reply as protobuf bytes, produced a slice at a time (encodeSamplesSliced) until the call's
 * deadline passes or it is cancelled; then the work stops, is logged, and the call ends CANCELLED
 * (grpc-js has already answered DEADLINE_EXCEEDED to a caller whose deadline passed).
 */
export async function slicedSamplesReply(count: number, call: ServerUnaryCall<unknown, unknown>, variant: NestVariant, what: string): Promise<Buffer> {
  const signal = grpcCallSignal(call);
  try {
    return await encodeSamplesSliced(count, signal, grpcCodecFor(variant), (phase, ms) => processSampler().addPhase(phase, ms));
  } catch (error) {
    if (!signal.aborted) throw error;
    noteAbandoned(`${what} of ${count} rows`, signal.reason);
    throw new RpcException({ code: status.CANCELLED, message: (signal.reason as Error).message });
  }
}
