import { buildRowsSliced, encodeSliced, type RowStreamPhases } from '@bench/samples';
import { getSamplesCodec } from './codec';
import type { CodecChoice } from './samples-codecs';

/**
 * sample.Samples of rows 0 … count-1 as protobuf bytes, built and then encoded a slice at a time with
 * `codec`'s metered serializer (each slice's encoding is timed as a whole reply's was), stopping with
 * the signal's reason once it aborts. Every row is built before encoding starts, as the blog's
 * servers did; the concatenated slices are the bytes the whole message encodes to, which the metered
 * serializer then sends as they are (package-definition.ts).
 */
export async function encodeSamplesSliced(count: number, signal: AbortSignal, codec: CodecChoice = 'proto-loader', phases?: RowStreamPhases): Promise<Buffer> {
  const serialize = getSamplesCodec(codec).responseSerialize;
  const samples = await buildRowsSliced(count, signal, phases);
  const parts = await encodeSliced(samples, (slice) => serialize({ samples: slice }), signal);
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}
