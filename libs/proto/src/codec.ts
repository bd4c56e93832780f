import type { MethodDefinition } from '@grpc/proto-loader';
import { samplePackageDefinition } from './package-definition';
import type { CodecChoice } from './samples-codecs';
import type { GetSamplesParam, GetSamplesParam__Output, Samples, Samples__Output } from './types';

export type GetSamplesMethod = MethodDefinition<GetSamplesParam, Samples, GetSamplesParam__Output, Samples__Output>;

/**
 * The serializers of sample.SampleService/GetSamples: the exact codec Nest's gRPC transport uses (for
 * `codec` 'fast', the tuned variant's), timed and observed like every gRPC reply. proto-h1 sends the same
 * Samples message in an HTTP/1.1 body with these very functions, so it differs from gRPC in transport only.
 */
export function getSamplesCodec(codec: CodecChoice = 'proto-loader'): GetSamplesMethod {
  const service = samplePackageDefinition(codec)['sample.SampleService'] as unknown as Record<string, GetSamplesMethod>;
  return service['GetSamples'];
}
