import { HttpService } from '@nestjs/axios';
import type { Provider } from '@nestjs/common';
import type { ClientGrpc } from '@nestjs/microservices';
import { SETTINGS, type Settings } from '@bench/config';
import type { PayloadEndpoint } from '@bench/harness';
import { PAYLOADS, verifyPayloadReply, type Payload } from '@bench/payloads';
import { GrpcTransport, jsonOptions, JsonTransport } from '@bench/transports';
import { PAYLOAD_ENDPOINTS, SAMPLE_GRPC_CLIENT } from './transports/tokens';

/**
 * Both calls of one payload endpoint, on the same transports as the blog's rows (axios or undici,
 * Nest's ClientGrpc), so the two are measured alike; replies are checked against the payload builder.
 */
function endpointFor(payload: Payload, http: HttpService, client: ClientGrpc, settings: Settings): PayloadEndpoint {
  const { route, service, method, field } = payload.names;
  return {
    transports: {
      json: new JsonTransport(http, settings, jsonOptions(settings, `/server-a/${route}/`)),
      // The method as the .proto spells it (GetOrders): grpc-js's camelCase alias mangles digits (GetE2eItems → getE2EItems).
      grpc: new GrpcTransport(client, settings, { route: { service, method, field }, unary: null }),
    },
    verify: (body, items) => verifyPayloadReply(payload, body, items),
  };
}

/** Every payload endpoint of libs/payloads (the generator's catalog): the client needs no code per endpoint. */
export const PAYLOAD_ENDPOINTS_PROVIDER: Provider = {
  provide: PAYLOAD_ENDPOINTS,
  useFactory: (http: HttpService, client: ClientGrpc, settings: Settings): Record<string, PayloadEndpoint> =>
    Object.fromEntries(PAYLOADS.map((payload) => [payload.name, endpointFor(payload, http, client, settings)])),
  inject: [HttpService, SAMPLE_GRPC_CLIENT, SETTINGS],
};
