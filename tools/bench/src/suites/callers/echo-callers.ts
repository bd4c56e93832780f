// The echo call (experiment §4's RequestMessage → ResponseMessage) over each transport, as adapters
// of one shape: (servers, content) → a Caller whose every reply is checked against the content sent.
import { echoCodec, PROTOBUF_MEDIA_TYPE } from '@bench/proto';
import { expectEqual, type Caller } from './caller';
import { grpcBidiCaller, type StreamCaller } from './grpc-bidi';
import { grpcUnaryCaller } from './grpc-unary';
import { httpCaller } from './http-call';

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

export const ECHO_CALLERS: Readonly<Record<EchoTransport, (servers: Servers, content: string) => Promise<Caller>>> = {
  'grpc-unary': (servers, content) => grpcUnaryCaller('echo', servers.serverBAddress, 'UnaryTest', { content }, checkContent(content), TIMEOUT_MS),
  'grpc-bidi': echoBidiCaller,
  'rest-json': async (servers, content) => {
    const check = checkContent(content);
    return httpCaller({
      url: `${servers.serverAUrl}/echo/json`,
      method: 'POST',
      body: Buffer.from(JSON.stringify({ content })),
      contentType: 'application/json',
      keepAlive: true,
      check: (body) => check(JSON.parse(body.toString('utf8')) as { content: string }),
      timeoutMs: TIMEOUT_MS,
    });
  },
  'rest-protobuf': async (servers, content) => {
    // Looked up once, outside the timed calls.
    const codec = echoCodec();
    const check = checkContent(content);
    return httpCaller({
      url: `${servers.serverAUrl}/echo/protobuf`,
      method: 'POST',
      body: codec.requestSerialize({ content }),
      contentType: PROTOBUF_MEDIA_TYPE,
      keepAlive: true,
      check: (body) => check(codec.responseDeserialize(body)),
      timeoutMs: TIMEOUT_MS,
    });
  },
};
