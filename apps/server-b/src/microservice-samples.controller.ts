import { status } from '@grpc/grpc-js';
import { Controller, Inject, type Type } from '@nestjs/common';
import { MessagePattern, Payload, RpcException } from '@nestjs/microservices';
import { processSampler, SETTINGS, type Settings } from '@bench/config';
import { buildRows, buildRowsSliced, noteAbandoned, ReplyAbandoned, WHOLE_REPLY_MAX_ROWS, type RowStreamPhases, type SampleRow } from '@bench/samples';
import { readSamplesMessage, SAMPLES_PATTERN, samplesPattern } from '@bench/transports';
import { orInvalidArgument } from '@bench/validation';

const PHASES: RowStreamPhases = (phase, ms) => processSampler().addPhase(phase, ms);

/**
 * The blog's GetSamples over Nest's microservice transports (nest-tcp, nest-redis, …, whichever server-b
 * connects): ClientProxy.send(pattern, { count, deadlineMs }) answered with `{ samples: [...] }`, the rows
 * the other transports return, serialized by the transport's own JSON (nest-tcp's encoding timed in its
 * folder's socket.ts). A malformed message gets an error reply naming the field (INVALID_ARGUMENT, code 3),
 * never a crash; an unknown pattern gets Nest's own "no matching message handler" reply. The pattern is
 * SAMPLES_PATTERN in the set's namespace (samplesPattern), hence a controller class made per settings.
 */
export function microserviceSamplesController(settings: Settings): Type<unknown> {
  @Controller()
  class MicroserviceSamplesController {
    constructor(@Inject(SETTINGS) private readonly settings: Settings) {}

    @MessagePattern(samplesPattern(settings))
    getSamples(@Payload() message: unknown): Promise<{ samples: SampleRow[] }> {
      return samplesReply(message, this.settings.maxRows);
    }
  }
  return MicroserviceSamplesController;
}

/** The reply to one message: its rows (built whole, or a slice at a time above WHOLE_REPLY_MAX_ROWS and given up at the deadline). */
async function samplesReply(message: unknown, maxRows: number): Promise<{ samples: SampleRow[] }> {
  const { count, deadlineMs } = orInvalidArgument(readSamplesMessage(message, maxRows));
  processSampler().countRequest();
  if (count <= WHOLE_REPLY_MAX_ROWS) {
    const started = performance.now();
    const samples = buildRows(count);
    PHASES('build', performance.now() - started);
    return { samples };
  }
  // Larger: built a slice at a time, and given up once the caller's deadline has passed (it no longer waits).
  const signal = AbortSignal.timeout(deadlineMs);
  try {
    return { samples: await buildRowsSliced(count, signal, PHASES) };
  } catch (error) {
    if (!signal.aborted) throw error;
    const reason = new ReplyAbandoned(`the caller's deadline of ${deadlineMs} ms passed`);
    noteAbandoned(`server-b ${SAMPLES_PATTERN} reply of ${count} rows`, reason);
    throw new RpcException({ code: status.DEADLINE_EXCEEDED, message: `DEADLINE_EXCEEDED: ${reason.message}` });
  }
}
