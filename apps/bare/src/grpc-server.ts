import * as grpc from '@grpc/grpc-js';
import { processSampler, type Settings } from '@bench/config';
import { malformedReason, MAX_MESSAGE_BYTES, observeSampleCodec, samplePackageDefinition, type GetSamplesParam__Output, type ReadRequest__Output } from '@bench/proto';
import { buildRows } from '@bench/samples';
import { parseIntField } from '@bench/validation';

type Services = {
  sample: { SampleService: { service: grpc.ServiceDefinition } };
  grpc: { health: { v1: { Health: { service: grpc.ServiceDefinition } } } };
  bench: { metrics: { ProcessMetrics: { service: grpc.ServiceDefinition } } };
};

/** server-b's services on a plain grpc-js server (not yet bound). */
export function createGrpcServer(settings: Settings): grpc.Server {
  const sampler = processSampler();
  observeSampleCodec({ encoded: (_bytes, ms) => sampler.addPhase('encode', ms) });
  const services = grpc.loadPackageDefinition(samplePackageDefinition()) as unknown as Services;
  const server = new grpc.Server({
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
  });
  server.addService(services.sample.SampleService.service, {
    GetSamples: (call: grpc.ServerUnaryCall<GetSamplesParam__Output, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const malformed = malformedReason(call.request);
      if (malformed) {
        return callback({ code: grpc.status.INVALID_ARGUMENT, details: `request is not a valid GetSamplesParam message: ${malformed} [request: type]` });
      }
      const count = parseIntField('count', call.request.count, { min: 1, max: settings.maxRows });
      if (!count.ok) {
        return callback({ code: grpc.status.INVALID_ARGUMENT, details: `${count.error.message} [count: ${count.error.rule}]` });
      }
      const started = performance.now();
      const samples = buildRows(count.value);
      sampler.addPhase('build', performance.now() - started);
      callback(null, { samples });
    },
  });
  server.addService(services.grpc.health.v1.Health.service, {
    Check: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => callback(null, { status: 'SERVING' }),
  });
  server.addService(services.bench.metrics.ProcessMetrics.service, {
    Read: (call: grpc.ServerUnaryCall<ReadRequest__Output, unknown>, callback: grpc.sendUnaryData<unknown>) =>
      callback(null, sampler.read(call.request.resetPeak)),
  });
  return server;
}
