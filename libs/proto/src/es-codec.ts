import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { asBuffer } from './as-buffer';
import { SamplesSchema } from './generated/connect/sample_pb';
import type { Samples, Samples__Output } from './types';

/**
 * sample.Samples with protobuf-es v2, from the code protoc-gen-es generates for the Connect transports
 * (generated/connect). Its writer accepts only its own messages (each row carries $typeName), so plain
 * rows are first copied into messages with create(): the per-row copy proto-loader's fromObject makes.
 * Decoding gives plain objects with every proto3 default set, plus $typeName.
 */
export function encodeSamplesEs(value: Samples): Buffer {
  return asBuffer(toBinary(SamplesSchema, create(SamplesSchema, value as Parameters<typeof create<typeof SamplesSchema>>[1])));
}

export function decodeSamplesEs(buffer: Buffer): Samples__Output {
  return fromBinary(SamplesSchema, buffer) as Samples__Output;
}
