import * as grpc from '@grpc/grpc-js';
import { PLAIN } from '@bench/config';
import { grpcUnaryCaller } from '../../src/grpc/caller';
import { grpcServiceClient } from '../../src/grpc/services';
import { grpcBidiCaller } from '../../src/grpc/stream-caller';

type Echo = { content: string };

/** server-b's echo.DataManager on loopback, with plain grpc-js: each request's content back (or `reply`'s, to test the check). */
async function startEcho(reply: (content: string) => string): Promise<{ address: string; close: () => void }> {
  const server = new grpc.Server();
  const { service } = grpcServiceClient('echo.DataManager') as unknown as { service: grpc.ServiceDefinition };
  server.addService(service, {
    UnaryTest: (call: grpc.ServerUnaryCall<Echo, Echo>, done: grpc.sendUnaryData<Echo>) => done(null, { content: reply(call.request.content) }),
    BiStreamTest: (call: grpc.ServerDuplexStream<Echo, Echo>) => {
      call.on('data', (request: Echo) => call.write({ content: reply(request.content) }));
      call.on('end', () => call.end());
    },
  });
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, p) => (error ? reject(error) : resolve(p))));
  return { address: `127.0.0.1:${port}`, close: () => server.forceShutdown() };
}

const check = (content: string) => (reply: Echo) => {
  if (reply.content !== content) throw new Error(`wrong content: ${reply.content}`);
};

describe.each([
  ['unary', (address: string, content: string) => grpcUnaryCaller('echo', { address, security: PLAIN }, 'UnaryTest', { content }, check(content), 5_000)],
  ['bidirectional stream', (address: string, content: string) => grpcBidiCaller('echo', { address, security: PLAIN }, 'BiStreamTest', { content }, check(content))],
])('grpc %s caller', (_, makeCaller) => {
  it('makes the same call again and again, every reply checked', async () => {
    const server = await startEcho((content) => content);
    try {
      const caller = await makeCaller(server.address, 'hello');
      for (let i = 0; i < 5; i++) await expect(caller.call()).resolves.toBeUndefined();
      await caller.close();
    } finally {
      server.close();
    }
  });

  it('rejects a reply that fails its check', async () => {
    const server = await startEcho(() => 'something else');
    try {
      const caller = await makeCaller(server.address, 'hello');
      await expect(caller.call()).rejects.toThrow('wrong content: something else');
      await caller.close();
    } finally {
      server.close();
    }
  });
});
