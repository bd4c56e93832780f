import { gunzipSync, gzipSync } from 'node:zlib';
import { getSamplesCodec, SAMPLES_CODECS, type SamplesCodec } from '@bench/proto';

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

/** A codec for the replies only: one of libs/proto's SAMPLES_CODECS, exactly as a variant would use it. */
function samplesCodec(id: string, codec: SamplesCodec): CodecRecord {
  return { id, description: codec.description, handles: ['samples'], encode: (_kind, value) => codec.encode(value as never), decode: (_kind, bytes) => codec.decode(bytes) };
}

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
  samplesCodec('protobuf-fast', SAMPLES_CODECS.fast),
  // Generated TypeScript codecs (issue #18, docs/codecs.md), from the same proto/sample.proto by `nx run proto:generate`.
  samplesCodec('protobuf-es', SAMPLES_CODECS['protobuf-es']),
  samplesCodec('ts-proto', SAMPLES_CODECS['ts-proto']),
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
