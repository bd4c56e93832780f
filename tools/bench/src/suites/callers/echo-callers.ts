// The echo call (experiment §4's RequestMessage → ResponseMessage) over each transport, as the
// library's callers (libs/transports): (servers, content) → a Caller whose every reply is checked against the content sent.
import { echoCodec } from '@bench/proto';
import { grpcBidiCaller, grpcUnaryCaller, jsonCaller, protobufCaller, type Caller, type StreamCaller } from '@bench/transports';
import { expectEqual } from './expect-equal';

export interface Servers {
  serverAUrl: string;
  serverBAddress: string;
}

export type EchoTransport = 'grpc-unary' | 'grpc-bidi' | 'rest-json' | 'rest-protobuf';

const TIMEOUT_MS = 10_000;
const checkContent = (content: string) => (reply: { content: string }) => expectEqual('echoed content', reply.content, content);

export function echoBidiCaller(servers: Servers, content: string): Promise<StreamCaller> {
  return grpcBidiCaller('echo', servers.serverBAddress, 'BiStreamTest', { content }, checkContent(content));
}

/** A POST of `{ content }` to server-a's echo route, kept alive. */
const echoCall = (servers: Servers, format: 'json' | 'protobuf', content: string) => ({
  url: `${servers.serverAUrl}/echo/${format}`,
  request: { content },
  keepAlive: true,
  check: checkContent(content),
  timeoutMs: TIMEOUT_MS,
});

export const ECHO_CALLERS: Readonly<Record<EchoTransport, (servers: Servers, content: string) => Promise<Caller>>> = {
  'grpc-unary': (servers, content) => grpcUnaryCaller('echo', servers.serverBAddress, 'UnaryTest', { content }, checkContent(content), TIMEOUT_MS),
  'grpc-bidi': echoBidiCaller,
  'rest-json': async (servers, content) => jsonCaller(echoCall(servers, 'json', content)),
  // The codec is looked up once, outside the timed calls.
  'rest-protobuf': async (servers, content) => protobufCaller(echoCall(servers, 'protobuf', content), echoCodec()),
};
