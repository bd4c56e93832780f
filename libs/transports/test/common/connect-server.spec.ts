import { createConnectRouter } from '@connectrpc/connect';
import { connectSampleRoutes, connectServing, type ConnectBinding } from '../../src/common/connect-server';
import { CONNECT_GRPC_SERVER } from '../../src/connect-grpc/server';
import { CONNECT_JSON_SERVER } from '../../src/connect-json/server';
import { CONNECT_PROTO_SERVER } from '../../src/connect-proto/server';

describe("the Connect transports' server bindings", () => {
  const settings = { maxRows: 10 };

  it('mount sample.SampleService once for the three, and switch on only the protocols they speak', () => {
    const serving = connectServing([CONNECT_JSON_SERVER, CONNECT_PROTO_SERVER, CONNECT_GRPC_SERVER], settings);
    expect({ connect: serving.connect, grpc: serving.grpc, grpcWeb: serving.grpcWeb }).toEqual({ connect: true, grpc: true, grpcWeb: false });
    const router = createConnectRouter();
    serving.routes(router);
    // The service's every method, each once (GetSamplesStream answers unimplemented, as before).
    expect(router.handlers.map((h) => h.requestPath)).toEqual(['/sample.SampleService/GetSamples', '/sample.SampleService/GetSamplesStream']);
  });

  it('leave a protocol off when no binding speaks it', () => {
    const grpcWeb: ConnectBinding = { protocol: 'grpc-web', routes: connectSampleRoutes };
    expect(connectServing([CONNECT_GRPC_SERVER, grpcWeb], settings)).toMatchObject({ connect: false, grpc: true, grpcWeb: true });
  });
});
