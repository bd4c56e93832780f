import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import { processSampler, type Settings } from '@bench/config';
import { connectSample } from '@bench/proto';
import { buildRowsSliced, noteAbandoned } from '@bench/samples';
import { parseIntField } from '@bench/validation';

/**
 * Transports connect-json, connect-proto and connect-grpc: sample.SampleService/GetSamples served by
 * connect-es from the code protoc-gen-es generates from proto/sample.proto (libs/proto, `proto:generate`).
 * One handler answers the Connect protocol (JSON or binary bodies) and the gRPC protocol; it is mounted on
 * server-a's HTTP/2 cleartext listener (http-platform.ts), beside the same Nest controllers. A bad count
 * is Connect's invalid_argument (gRPC INVALID_ARGUMENT), with the message format of every other server.
 * The rows are built a slice at a time (buildRowsSliced), so a call whose deadline passes
 * (connect-timeout-ms, grpc-timeout) or whose caller goes away (connect-es aborts `context.signal` for
 * both) stops within a slice. The reply is one message, encoded and written whole by connect-es: a
 * caller that does not read holds it until its deadline (docs/reliability.md, "Limits").
 */
export function connectRoutes(settings: Pick<Settings, 'maxRows'>): (router: ConnectRouter) => void {
  return (router) =>
    router.service(connectSample.SampleService, {
      async getSamples(request, context) {
        const count = parseIntField('count', request.count, { min: 1, max: settings.maxRows });
        if (!count.ok) throw new ConnectError(`${count.error.message} [${count.error.field}: ${count.error.rule}]`, Code.InvalidArgument);
        try {
          return { samples: await buildRowsSliced(count.value, context.signal, (phase, ms) => processSampler().addPhase(phase, ms)) };
        } catch (error) {
          if (context.signal.aborted) noteAbandoned(`server-a Connect reply of ${count.value} rows`, context.signal.reason);
          throw error;
        }
      },
    });
}
