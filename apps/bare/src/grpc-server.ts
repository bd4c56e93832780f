import * as grpc from '@grpc/grpc-js';
import { parseBulkRequest, processSampler, type Settings } from '@bench/config';
import { GRPC_SERVER_OPTIONS, observeSampleCodec, samplePackageDefinition, type BulkChunk, type BulkRequest__Output, type ReadRequest__Output } from '@bench/proto';
import { addSampleService } from '@bench/transports';

type Services = {
  sample: { SampleService: { service: grpc.ServiceDefinition } };
  grpc: { health: { v1: { Health: { service: grpc.ServiceDefinition } } } };
  bench: { metrics: { ProcessMetrics: { service: grpc.ServiceDefinition } }; path: { PathProbe: { service: grpc.ServiceDefinition } } };
};

/** `bytes` zero bytes in chunks of `chunkBytes` from one zeroed buffer, each written when the stream has room. */
function sendBulk(call: grpc.ServerWritableStream<BulkRequest__Output, BulkChunk>): void {
  const bulk = parseBulkRequest(call.request);
  if (!bulk.ok) {
    call.emit('error', { code: grpc.status.INVALID_ARGUMENT, details: `${bulk.error.message} [${bulk.error.field}: ${bulk.error.rule}]` });
    return;
  }
  const { bytes, chunkBytes } = bulk.value;
  const zeros = Buffer.alloc(Math.min(chunkBytes, bytes));
  let sent = 0;
  const write = (): void => {
    while (sent < bytes && !call.cancelled) {
      const size = Math.min(chunkBytes, bytes - sent);
      sent += size;
      if (!call.write({ data: zeros.subarray(0, size) })) return void call.once('drain', write);
    }
    if (!call.cancelled) call.end();
  };
  write();
}

/** server-b's services on a plain grpc-js server (not yet bound; limitGrpcSessions once it is), with apps/server-b's limits. */
export function createGrpcServer(settings: Settings): grpc.Server {
  const sampler = processSampler();
  observeSampleCodec({ encoded: (_bytes, ms) => sampler.addPhase('encode', ms) });
  const services = grpc.loadPackageDefinition(samplePackageDefinition()) as unknown as Services;
  const server = new grpc.Server({ ...GRPC_SERVER_OPTIONS });
  // The blog's GetSamples as server-b serves it: the grpc folder's server binding (libs/transports).
  addSampleService(server, services.sample.SampleService.service, settings, (phase, ms) => sampler.addPhase(phase, ms));
  server.addService(services.grpc.health.v1.Health.service, {
    Check: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => callback(null, { status: 'SERVING' }),
  });
  server.addService(services.bench.metrics.ProcessMetrics.service, {
    Read: (call: grpc.ServerUnaryCall<ReadRequest__Output, unknown>, callback: grpc.sendUnaryData<unknown>) =>
      callback(null, sampler.read(call.request.resetPeak)),
  });
  server.addService(services.bench.path.PathProbe.service, { Bulk: sendBulk });
  return server;
}
