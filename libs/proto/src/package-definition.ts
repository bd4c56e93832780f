import { loadSync, type PackageDefinition } from '@grpc/proto-loader';
import { PROTO_LOADER_OPTIONS } from './loader-options';
import { PROTO_DIR, SERVED_PROTOS } from './paths';
import { SAMPLE_PACKAGE } from './names';
import { codecObserver } from './codec-observer';

type Method = { responseDeserialize?: (buffer: Buffer) => unknown; responseSerialize?: (value: unknown) => Buffer };

let loaded: PackageDefinition | undefined;

/**
 * Our protos loaded exactly as Nest would load them from `protoPath` + `loader` (the same
 * proto-loader call and options), with each sample.* reply serializer and deserializer wrapped to time it and count its bytes.
 * Loaded once per process and shared by every server and client in it.
 */
export function samplePackageDefinition(): PackageDefinition {
  if (loaded) return loaded;
  const definition = loadSync([...SERVED_PROTOS], { ...PROTO_LOADER_OPTIONS, includeDirs: [PROTO_DIR] });
  for (const [name, entry] of Object.entries(definition)) {
    // Only the blog's service is metered: health and metrics replies are not the payload under test.
    if (!name.startsWith(`${SAMPLE_PACKAGE}.`) || 'format' in entry || 'type' in entry) continue;
    for (const method of Object.values(entry as Record<string, Method>)) {
      const decode = method.responseDeserialize;
      const encode = method.responseSerialize;
      if (!decode || !encode) continue;
      method.responseDeserialize = (buffer: Buffer) => {
        const started = performance.now();
        const value = decode(buffer);
        codecObserver().decoded?.(buffer.length, performance.now() - started);
        return value;
      };
      method.responseSerialize = (value: unknown) => {
        const started = performance.now();
        const buffer = encode(value);
        codecObserver().encoded?.(buffer.length, performance.now() - started);
        return buffer;
      };
    }
  }
  loaded = definition;
  return definition;
}
