import { getSamplesCodec, type CodecChoice } from '@bench/proto';
import { buildRows, buildRowsSliced, encodeSliced, noteAbandoned, WHOLE_REPLY_MAX_ROWS, type RowStreamPhases } from '@bench/samples';

// proto-h1's server binding: its route on server-a's HTTP/1.1 listener and the reply's body, one
// sample.Samples message encoded by the very serializer server-b's GetSamples uses.

/** Its route beside the JSON one: GET /server-a/protobuf/:count (Nest's path within JSON_ROWS_CONTROLLER). */
export const PROTOBUF_ROWS_ROUTE = 'protobuf/:count';

/**
 * The body of a reply of `count` rows in `codec` (the variant's: the tuned fast codec when tuned). Up to
 * WHOLE_REPLY_MAX_ROWS rows built and encoded at once; larger, built and then encoded a slice at a time
 * (the parts concatenated are the one message), stopping when the caller goes: then null, the
 * abandonment noted, and the server drops the reply.
 */
export async function protobufRowsBody(count: number, codec: CodecChoice, signalOf: () => AbortSignal, phases: RowStreamPhases): Promise<Buffer | null> {
  const serialize = getSamplesCodec(codec).responseSerialize;
  if (count <= WHOLE_REPLY_MAX_ROWS) {
    const started = performance.now();
    const samples = buildRows(count);
    phases('build', performance.now() - started);
    return serialize({ samples });
  }
  const signal = signalOf();
  try {
    const samples = await buildRowsSliced(count, signal, phases);
    return Buffer.concat(await encodeSliced(samples, (slice) => serialize({ samples: slice }), signal));
  } catch (error) {
    if (!signal.aborted) throw error;
    noteAbandoned(`server-a protobuf reply of ${count} rows`, signal.reason);
    return null;
  }
}
