import { gunzipSync, gzipSync } from 'node:zlib';
import { decodeSamplesFast, encodeSamplesFast, getSamplesCodec } from '@bench/proto';

/** A way to put a message on the wire and back. Codecs are data: adding one is adding a record. */
export interface CodecRecord {
  id: string;
  description: string;
  /** Which message kinds it handles. */
  handles: readonly MessageKind[];
  encode(kind: MessageKind, value: unknown): Buffer;
  decode(kind: MessageKind, bytes: Buffer): unknown;
}

export type MessageKind = 'param' | 'samples';

const json = {
  encode: (value: unknown) => Buffer.from(JSON.stringify(value)),
  decode: (bytes: Buffer) => JSON.parse(bytes.toString('utf8')) as unknown,
};

export const CODECS: readonly CodecRecord[] = Object.freeze([
  {
    id: 'protobuf',
    description: "@grpc/proto-loader's serializers (protobufjs 7 with fromObject/toObject): what the blog's Nest gRPC uses",
    handles: ['param', 'samples'],
    encode: (kind, value) => (kind === 'param' ? getSamplesCodec().requestSerialize(value as { count: number }) : getSamplesCodec().responseSerialize(value as never)),
    decode: (kind, bytes) => (kind === 'param' ? getSamplesCodec().requestDeserialize(bytes) : getSamplesCodec().responseDeserialize(bytes)),
  },
  {
    id: 'protobuf-fast',
    description: 'the tuned codec: protobufjs 8 encode from plain objects, protobufjs 7 decode without toObject',
    handles: ['samples'],
    encode: (_kind, value) => encodeSamplesFast(value as never),
    decode: (_kind, bytes) => decodeSamplesFast(bytes),
  },
  {
    id: 'json',
    description: 'JSON.stringify / JSON.parse (UTF-8 bytes)',
    handles: ['param', 'samples'],
    encode: (_kind, value) => json.encode(value),
    decode: (_kind, bytes) => json.decode(bytes),
  },
  {
    id: 'json-gzip',
    description: 'JSON, gzipped with zlib (default level)',
    handles: ['param', 'samples'],
    encode: (_kind, value) => gzipSync(json.encode(value)),
    decode: (_kind, bytes) => json.decode(gunzipSync(bytes)),
  },
]);
