import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import { processSampler, type Settings } from '@bench/config';
import { connectSample } from '@bench/proto';
import { buildRows } from '@bench/samples';
import { parseIntField } from '@bench/validation';

/**
 * Transports connect-json, connect-proto and connect-grpc: sample.SampleService/GetSamples served by
 * connect-es from the code protoc-gen-es generates from proto/sample.proto (libs/proto, `proto:generate`).
 * One handler answers the Connect protocol (JSON or binary bodies) and the gRPC protocol; it is mounted on
 * server-a's HTTP/2 cleartext listener (http-platform.ts), beside the same Nest controllers. A bad count
 * is Connect's invalid_argument (gRPC INVALID_ARGUMENT), with the message format of every other server.
 */
export function connectRoutes(settings: Pick<Settings, 'maxRows'>): (router: ConnectRouter) => void {
  return (router) =>
    router.service(connectSample.SampleService, {
      getSamples(request) {
        const count = parseIntField('count', request.count, { min: 1, max: settings.maxRows });
        if (!count.ok) throw new ConnectError(`${count.error.message} [${count.error.field}: ${count.error.rule}]`, Code.InvalidArgument);
        const started = performance.now();
        const samples = buildRows(count.value);
        processSampler().addPhase('build', performance.now() - started);
        return { samples };
      },
    });
}
