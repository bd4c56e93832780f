// The echo call (experiment §4's RequestMessage → ResponseMessage) over each transport, as the
// library's callers (libs/transports): (servers, content) → a Caller whose every reply is checked against the content sent.
import type { SecuritySettings } from '@bench/config';
import { echoCodec } from '@bench/proto';
import { callerTls, grpcBidiCaller, grpcUnaryCaller, jsonCaller, protobufCaller, type Caller, type GrpcTarget, type StreamCaller } from '@bench/transports';
import { expectEqual } from './expect-equal';

/** Where a suite's callers reach the servers, and with what: plain, or TLS with the run's CA (and, under mtls, the client's certificate). */
export interface Servers {
  /** http://… or, under TLS, https://… */
  serverAUrl: string;
  serverBAddress: string;
  /** What the calls are wrapped in: the run's CA and client certificate described, their bytes held by libs/config. */
  security: SecuritySettings;
}

export type EchoTransport = 'grpc-unary' | 'grpc-bidi' | 'rest-json' | 'rest-protobuf';

const TIMEOUT_MS = 10_000;
const checkContent = (content: string) => (reply: { content: string }) => expectEqual('echoed content', reply.content, content);

/** server-b as a gRPC caller dials it. */
export const serverB = (servers: Servers): GrpcTarget => ({ address: servers.serverBAddress, security: servers.security });

export function echoBidiCaller(servers: Servers, content: string): Promise<StreamCaller> {
  return grpcBidiCaller('echo', serverB(servers), 'BiStreamTest', { content }, checkContent(content));
}

/** A POST of `{ content }` to server-a's echo route, kept alive. */
const echoCall = (servers: Servers, format: 'json' | 'protobuf', content: string) => ({
  url: `${servers.serverAUrl}/echo/${format}`,
  request: { content },
  keepAlive: true,
  tls: callerTls(servers.security),
  check: checkContent(content),
  timeoutMs: TIMEOUT_MS,
});

export const ECHO_CALLERS: Readonly<Record<EchoTransport, (servers: Servers, content: string) => Promise<Caller>>> = {
  'grpc-unary': (servers, content) => grpcUnaryCaller('echo', serverB(servers), 'UnaryTest', { content }, checkContent(content), TIMEOUT_MS),
  'grpc-bidi': echoBidiCaller,
  'rest-json': async (servers, content) => jsonCaller(echoCall(servers, 'json', content)),
  // The codec is looked up once, outside the timed calls.
  'rest-protobuf': async (servers, content) => protobufCaller(echoCall(servers, 'protobuf', content), echoCodec()),
};
