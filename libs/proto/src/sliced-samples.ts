import { buildRows, buildRowsSliced, encodeSliced, WHOLE_REPLY_MAX_ROWS, type RowStreamPhases } from '@bench/samples';
import { buildItemsSliced, buildReply, type Payload } from '@bench/payloads';
import { getSamplesCodec } from './codec';
import { samplePackageDefinition } from './package-definition';
import type { CodecChoice } from './samples-codecs';

/**
 * sample.Samples of rows 0 … count-1 as protobuf bytes, built and then encoded a slice at a time with
 * `codec`'s metered serializer (each slice's encoding is timed as a whole reply's was), stopping with
 * the signal's reason once it aborts. Every row is built before encoding starts, as the blog's
 * servers did; the concatenated slices are the bytes the whole message encodes to, which the metered
 * serializer then sends as they are (package-definition.ts). Up to WHOLE_REPLY_MAX_ROWS rows, built and
 * encoded in one piece, as before.
 */
export async function encodeSamplesSliced(count: number, signal: AbortSignal, codec: CodecChoice = 'proto-loader', phases?: RowStreamPhases): Promise<Buffer> {
  const serialize = getSamplesCodec(codec).responseSerialize;
  if (count <= WHOLE_REPLY_MAX_ROWS) {
    const started = performance.now();
    const samples = buildRows(count);
    phases?.('build', performance.now() - started);
    return serialize({ samples });
  }
  const samples = await buildRowsSliced(count, signal, phases);
  const parts = await encodeSliced(samples, (slice) => serialize({ samples: slice }), signal);
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

/**
 * A payload endpoint's reply (libs/payloads) as protobuf bytes: up to WHOLE_REPLY_MAX_ROWS items built
 * and encoded in one piece as before, more a slice at a time with the endpoint's metered serializer,
 * stopping once the signal aborts (the reply message's one field is the repeated list, so the slices
 * concatenated are the whole message).
 */
export async function encodePayloadSliced(payload: Payload, count: number, signal: AbortSignal): Promise<Buffer> {
  const { protoPackage, service, method, field } = payload.names;
  const methods = samplePackageDefinition()[`${protoPackage}.${service}`] as unknown as Record<string, { responseSerialize(value: unknown): Buffer }>;
  const serialize = methods[method].responseSerialize;
  if (count <= WHOLE_REPLY_MAX_ROWS) return serialize(buildReply(payload, count));
  const items = await buildItemsSliced(payload, count, signal);
  return Buffer.concat(await encodeSliced(items, (slice) => serialize({ [field]: slice }), signal));
}
