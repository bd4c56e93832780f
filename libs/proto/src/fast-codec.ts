import * as protobuf7 from 'protobufjs';
import * as protobuf8 from 'protobufjs8';
import { asBuffer } from './as-buffer';
import { SAMPLE_PROTO } from './paths';
import type { Samples, Samples__Output } from './types';

/**
 * The tuned variant's codec for sample.Samples, picked by measurement (README, "Variants"):
 * - encode with protobufjs 8's encoder straight from the plain row objects (proto-loader first copies
 *   every row into a message instance with fromObject, then encodes with protobufjs 7's slower writer);
 * - decode with protobufjs 7's decoder and keep its message instances (proto-loader then copies every
 *   row again into a plain object with toObject). Unset fields read their proto3 defaults from the
 *   message prototype, so rowNum 0 reads as 0.
 * Both produce and accept standard protobuf bytes: any gRPC peer can talk to them.
 */
const encoderType = protobuf8.loadSync(SAMPLE_PROTO).lookupType('sample.Samples');
const decoderType = protobuf7.loadSync(SAMPLE_PROTO).lookupType('sample.Samples');

export function encodeSamplesFast(value: Samples): Buffer {
  return asBuffer(encoderType.encode(value as protobuf8.Message).finish());
}

export function decodeSamplesFast(buffer: Buffer): Samples__Output {
  return decoderType.decode(buffer) as unknown as Samples__Output;
}
