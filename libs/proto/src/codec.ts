import { loadSync, type MethodDefinition } from '@grpc/proto-loader';
import { PROTO_LOADER_OPTIONS } from './loader-options';
import { PROTO_DIR, SAMPLE_PROTO } from './paths';
import type { GetSamplesParam, GetSamplesParam__Output, Samples, Samples__Output } from './types';

type GetSamplesMethod = MethodDefinition<GetSamplesParam, Samples, GetSamplesParam__Output, Samples__Output>;

let cached: GetSamplesMethod | undefined;

/**
 * The serializers proto-loader builds for sample.SampleService/GetSamples, loaded with the shared
 * options: the exact codec Nest's gRPC transport uses, for measuring message sizes outside the timer.
 */
export function getSamplesCodec(): GetSamplesMethod {
  if (!cached) {
    const definition = loadSync(SAMPLE_PROTO, { ...PROTO_LOADER_OPTIONS, includeDirs: [PROTO_DIR] });
    const service = definition['sample.SampleService'] as unknown as Record<string, GetSamplesMethod>;
    cached = service['GetSamples'];
  }
  return cached;
}
