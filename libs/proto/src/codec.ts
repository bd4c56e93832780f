import type { MethodDefinition } from '@grpc/proto-loader';
import { samplePackageDefinition } from './package-definition';
import type { GetSamplesParam, GetSamplesParam__Output, Samples, Samples__Output } from './types';

export type GetSamplesMethod = MethodDefinition<GetSamplesParam, Samples, GetSamplesParam__Output, Samples__Output>;

/** The serializers of sample.SampleService/GetSamples: the exact codec Nest's gRPC transport uses. */
export function getSamplesCodec(): GetSamplesMethod {
  const service = samplePackageDefinition()['sample.SampleService'] as unknown as Record<string, GetSamplesMethod>;
  return service['GetSamples'];
}
