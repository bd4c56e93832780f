import { loadSync, type PackageDefinition } from '@grpc/proto-loader';
import { PROTO_LOADER_OPTIONS } from './loader-options';
import { HEALTH_PROTO, PROTO_DIR, SAMPLE_PROTO } from './paths';
import { grpcReplyMeter } from './reply-meter';

type Method = { responseDeserialize?: (buffer: Buffer) => unknown };

let loaded: PackageDefinition | undefined;

/**
 * Our protos loaded exactly as Nest would load them from `protoPath` + `loader` (the same
 * proto-loader call and options), with each reply deserializer wrapped to count its bytes.
 * Loaded once per process and shared by every server and client in it.
 */
export function samplePackageDefinition(): PackageDefinition {
  if (loaded) return loaded;
  const definition = loadSync([SAMPLE_PROTO, HEALTH_PROTO], { ...PROTO_LOADER_OPTIONS, includeDirs: [PROTO_DIR] });
  for (const entry of Object.values(definition)) {
    if ('format' in entry || 'type' in entry) continue; // message and enum types, not services
    for (const method of Object.values(entry as Record<string, Method>)) {
      const decode = method.responseDeserialize;
      if (!decode) continue;
      method.responseDeserialize = (buffer: Buffer) => {
        grpcReplyMeter.record(buffer.length);
        return decode(buffer);
      };
    }
  }
  loaded = definition;
  return definition;
}
