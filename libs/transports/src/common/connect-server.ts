import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import { processSampler, type Settings } from '@bench/config';
import { connectSample } from '@bench/proto';
import { buildRowsSliced, noteAbandoned } from '@bench/samples';
import { rowCountOf } from './row-count';

/**
 * Transports connect-json, connect-proto and connect-grpc: sample.SampleService/GetSamples served by
 * connect-es from the code protoc-gen-es generates from proto/sample.proto (libs/proto, `proto:generate`).
 * One handler answers the Connect protocol (JSON or binary bodies) and the gRPC protocol; server-a mounts
 * it on its HTTP/2 listener (apps/server-a http-platform.ts), beside the same Nest controllers. A bad count
 * is Connect's invalid_argument (gRPC INVALID_ARGUMENT), with the message format of every other server.
 * The rows are built a slice at a time (buildRowsSliced), so a call whose deadline passes
 * (connect-timeout-ms, grpc-timeout) or whose caller goes away (connect-es aborts `context.signal` for
 * both) stops within a slice. The reply is one message, encoded and written whole by connect-es: a
 * caller that does not read holds it until its deadline (docs/reliability.md, "Limits").
 */
export function connectSampleRoutes(settings: Pick<Settings, 'maxRows'>): (router: ConnectRouter) => void {
  return (router) =>
    router.service(connectSample.SampleService, {
      async getSamples(request, context) {
        const count = rowCountOf(request.count, settings);
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

/** The protocols one connect-es handler can answer (its router's switches). */
export type ConnectProtocol = 'connect' | 'grpc' | 'grpc-web';

/** A Connect transport's server binding: the protocol its calls speak, and the routes that answer them. */
export interface ConnectBinding {
  protocol: ConnectProtocol;
  routes(settings: Pick<Settings, 'maxRows'>): (router: ConnectRouter) => void;
}

/**
 * What one connect-es handler needs to serve `bindings`: each distinct set of routes mounted once (the
 * Connect transports share connectSampleRoutes), and only their protocols switched on.
 */
export function connectServing(bindings: readonly ConnectBinding[], settings: Pick<Settings, 'maxRows'>): { routes(router: ConnectRouter): void; connect: boolean; grpc: boolean; grpcWeb: boolean } {
  const routes = [...new Set(bindings.map((b) => b.routes))].map((make) => make(settings));
  const speaks = (protocol: ConnectProtocol) => bindings.some((b) => b.protocol === protocol);
  return { routes: (router) => routes.forEach((mount) => mount(router)), connect: speaks('connect'), grpc: speaks('grpc'), grpcWeb: speaks('grpc-web') };
}
