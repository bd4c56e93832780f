import * as grpc from '@grpc/grpc-js';
import { parseBulkRequest, processSampler, type Settings } from '@bench/config';
import { encodeSamplesSliced, GRPC_SERVER_OPTIONS, grpcCallSignalFor, malformedReason, observeSampleCodec, samplePackageDefinition, type BulkChunk, type BulkRequest__Output, type GetSamplesParam__Output, type ReadRequest__Output } from '@bench/proto';
import { noteAbandoned } from '@bench/samples';
import { parseIntField } from '@bench/validation';

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
      // Built and encoded a slice at a time, stopped by the call's deadline or its cancellation (as server-b's).
      const signal = grpcCallSignalFor(count.value, call);
      encodeSamplesSliced(count.value, signal, 'proto-loader', (phase, ms) => sampler.addPhase(phase, ms)).then(
        (bytes) => callback(null, bytes),
        (error: unknown) => {
          if (!signal.aborted) return callback({ code: grpc.status.INTERNAL, details: String(error) });
          noteAbandoned(`server-b GetSamples reply of ${count.value} rows`, signal.reason);
          callback({ code: grpc.status.CANCELLED, details: (signal.reason as Error).message });
        },
      );
    },
  });
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
