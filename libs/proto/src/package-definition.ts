import { loadSync, type PackageDefinition } from '@grpc/proto-loader';
import { PROTO_LOADER_OPTIONS } from './loader-options';
import { PROTO_DIR, SERVED_PROTOS } from './paths';
import { SAMPLES_CODECS, type CodecChoice } from './samples-codecs';
import { CLIENT_FACING_PACKAGES, SAMPLE_PACKAGE } from './names';
import { codecObserver } from './codec-observer';
import { malformedRequest } from './malformed';
import { PAYLOAD_PACKAGES, PAYLOAD_PROTOS } from './payload-protos';

type Method = {
  requestDeserialize?: (buffer: Buffer) => unknown;
  responseDeserialize?: (buffer: Buffer) => unknown;
  responseSerialize?: (value: unknown) => Buffer;
};

const loaded = new Map<CodecChoice, PackageDefinition>();

/**
 * Our protos loaded exactly as Nest would load them from `protoPath` + `loader` (the same
 * proto-loader call and options). Requests of client-facing packages never fail to decode (handlers
 * answer INVALID_ARGUMENT instead), and each sample.* and payloads.* reply serializer and deserializer is
 * wrapped to time it and count its bytes. With another codec than 'proto-loader' (the tuned variant's: libs/config
 * grpcCodecFor) the sample.* replies use that one of SAMPLES_CODECS. A reply serializer handed a Buffer
 * sends it as it is: the bytes of a reply its handler encoded itself, a slice at a time.
 * Loaded once per process and shared by every server and client in it.
 */
export function samplePackageDefinition(codec: CodecChoice = 'proto-loader'): PackageDefinition {
  const cached = loaded.get(codec);
  if (cached) return cached;
  const definition = loadSync([...SERVED_PROTOS, ...PAYLOAD_PROTOS], { ...PROTO_LOADER_OPTIONS, includeDirs: [PROTO_DIR] });
  for (const [name, entry] of Object.entries(definition)) {
    if ('format' in entry || 'type' in entry) continue;
    const packageName = name.slice(0, name.lastIndexOf('.'));
    const payload = PAYLOAD_PACKAGES.includes(packageName);
    if (!payload && !CLIENT_FACING_PACKAGES.includes(packageName)) continue;
    for (const method of Object.values(entry as Record<string, Method>)) {
      guardRequestDecoding(method);
      // Only the payloads under test are metered (the blog's and the generated ones); echo, lookup,
      // health and metrics are not. SAMPLES_CODECS know only sample.Samples: payloads keep proto-loader's.
      if (packageName === SAMPLE_PACKAGE) meterReplies(method, codec);
      if (payload) meterReplies(method, 'proto-loader');
    }
  }
  loaded.set(codec, definition);
  return definition;
}

function guardRequestDecoding(method: Method): void {
  const decodeRequest = method.requestDeserialize;
  if (!decodeRequest) return;
  method.requestDeserialize = (buffer: Buffer) => {
    try {
      return decodeRequest(buffer);
    } catch (error) {
      return malformedRequest(error instanceof Error ? error.message : String(error));
    }
  };
}

function meterReplies(method: Method, codec: CodecChoice): void {
  const own = codec === 'proto-loader' ? undefined : SAMPLES_CODECS[codec];
  const decode = own ? (own.decode as (b: Buffer) => unknown) : method.responseDeserialize;
  const encode = own ? (own.encode as (v: unknown) => Buffer) : method.responseSerialize;
  if (!decode || !encode) return;
  method.responseDeserialize = (buffer: Buffer) => {
    const started = performance.now();
    const value = decode(buffer);
    codecObserver().decoded?.(buffer.length, performance.now() - started);
    return value;
  };
  method.responseSerialize = (value: unknown) => {
    // A reply a handler already encoded in slices (libs/samples encodeSliced), each slice timed as it was encoded.
    if (Buffer.isBuffer(value)) return value;
    const started = performance.now();
    const buffer = encode(value);
    codecObserver().encoded?.(buffer.length, performance.now() - started);
    return buffer;
  };
}
