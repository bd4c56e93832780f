import { asBuffer } from './as-buffer';
import { Samples as TsProtoSamples } from './generated/ts-proto/sample';
import type { Samples, Samples__Output } from './types';

/**
 * sample.Samples with ts-proto's generated encode/decode (generated/ts-proto): straight from the plain
 * rows, field by field, on @bufbuild/protobuf's wire writer, and back into plain objects built from one
 * literal (every proto3 default set). No reflection and no per-row copy before encoding.
 */
export function encodeSamplesTsProto(value: Samples): Buffer {
  return asBuffer(TsProtoSamples.encode(value as TsProtoSamples).finish());
}

export function decodeSamplesTsProto(buffer: Buffer): Samples__Output {
  return TsProtoSamples.decode(buffer) as Samples__Output;
}
