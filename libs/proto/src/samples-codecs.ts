import { decodeSamplesEs, encodeSamplesEs } from './es-codec';
import { decodeSamplesFast, encodeSamplesFast } from './fast-codec';
import { decodeSamplesTsProto, encodeSamplesTsProto } from './ts-proto-codec';
import type { Samples, Samples__Output } from './types';

/** One way to put sample.Samples on the wire and back; every one writes and reads standard protobuf bytes. */
export interface SamplesCodec {
  description: string;
  encode(value: Samples): Buffer;
  decode(buffer: Buffer): Samples__Output;
}

/**
 * The codecs that can replace proto-loader's for sample.* replies (package-definition.ts), as data:
 * the serialization suite times each, and a variant picks one (libs/config grpcCodecFor).
 */
export const SAMPLES_CODECS = Object.freeze({
  fast: {
    description: 'protobufjs 8 encode from plain rows, protobufjs 7 decode into message instances (fast-codec.ts)',
    encode: encodeSamplesFast,
    decode: decodeSamplesFast,
  },
  'protobuf-es': {
    description: "protobuf-es v2 (protoc-gen-es's generated schema): create() then toBinary, fromBinary",
    encode: encodeSamplesEs,
    decode: decodeSamplesEs,
  },
  'ts-proto': {
    description: "ts-proto's generated encode/decode on @bufbuild/protobuf's wire writer and reader, plain objects both ways",
    encode: encodeSamplesTsProto,
    decode: decodeSamplesTsProto,
  },
} satisfies Record<string, SamplesCodec>);

/** Which codec sample.* replies use: proto-loader's own serializers, or one of SAMPLES_CODECS. */
export type CodecChoice = 'proto-loader' | keyof typeof SAMPLES_CODECS;
