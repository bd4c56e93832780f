import { HttpModule, HttpService } from '@nestjs/axios';
import { Module, type DynamicModule } from '@nestjs/common';
import { ClientsModule, type ClientGrpc } from '@nestjs/microservices';
import { CONTROL_ACCESS, http2WindowFor, SETTINGS, type ControlAccess, type Settings } from '@bench/config';
import { clientGrpcOptions } from './transports/grpc-client-options';
import { BenchController } from './bench.controller';
import { CASE_RUNNER_PROVIDER } from './case-runner.provider';
import { ClientController } from './client.controller';
import { ErrorsFilter } from './errors.filter';
import { HealthController } from './health.controller';
import { PAYLOAD_ENDPOINTS_PROVIDER } from './payload-endpoints.provider';
import { GrpcTransport, grpcUnaryClientFor, SAMPLES_GRPC_ROUTE } from './transports/grpc.transport';
import { JsonTransport } from './transports/json.transport';
import { CONNECT_TRANSPORTS, GRPC_TRANSPORT, JSON_H2_TRANSPORT, JSON_TRANSPORT, PROTO_H1_TRANSPORT, SAMPLE_GRPC_CLIENT } from './transports/tokens';
import { ConnectTransports } from './transports/connect.transport';
import { clientTls, httpsAgentFor, tlsSessionsFor } from './transports/client-tls';
import { httpAgentFor, lookupFor } from './transports/client-lookup';
import { Http2JsonTransport } from './transports/http2-json';
import { ProtoH1Transport } from './transports/proto-h1.transport';
import { rowStreamingFor, SAMPLES_ROUTE } from './transports/streamed-rows';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ControlTokenGuard } from './control-token.guard';

/** No token: the control API as a client bound to loopback without BENCH_TOKEN serves it (tests, local runs). */
const OPEN_TO_THIS_MACHINE: ControlAccess = { token: null, describe: 'control API open (no token)' };

@Module({})
export class AppModule {
  static register(settings: Settings, access: ControlAccess = OPEN_TO_THIS_MACHINE): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // Under TLS every axios call (the blog's JSON, readiness, metrics) trusts the run's CA through this agent.
        // In cleartext they go through Node's global agent, or one looking names up through the process's cache (cached-lookup).
        HttpModule.register({ httpsAgent: httpsAgentFor(settings), httpAgent: httpAgentFor(settings) }),
        ClientsModule.register([{ name: SAMPLE_GRPC_CLIENT, ...clientGrpcOptions(settings) }]),
      ],
      controllers: [ClientController, BenchController, HealthController],
      providers: [
        { provide: SETTINGS, useValue: settings },
        { provide: CONTROL_ACCESS, useValue: access },
        { provide: APP_GUARD, useClass: ControlTokenGuard },
        // Factories, not classes: the transports also take a route, which payload endpoints set (payload-endpoints.provider.ts).
        { provide: JSON_TRANSPORT, useFactory: (http: HttpService, s: Settings) => new JsonTransport(http, s), inject: [HttpService, SETTINGS] },
        { provide: GRPC_TRANSPORT, useFactory: (client: ClientGrpc, s: Settings) => new GrpcTransport(client, s, SAMPLES_GRPC_ROUTE, grpcUnaryClientFor(s)), inject: [SAMPLE_GRPC_CLIENT, SETTINGS] },
        { provide: JSON_H2_TRANSPORT, useFactory: (s: Settings) => new Http2JsonTransport(s.serverAH2Url, http2WindowFor(s.variant), SAMPLES_ROUTE, rowStreamingFor(s, SAMPLES_ROUTE), clientTls(s), tlsSessionsFor(s), lookupFor(s)), inject: [SETTINGS] },
        { provide: PROTO_H1_TRANSPORT, useClass: ProtoH1Transport },
        // server-a serves Connect on its HTTP/2 listener and its metrics on /metrics, as for json.
        { provide: CONNECT_TRANSPORTS, useFactory: (s: Settings, json: JsonTransport) => new ConnectTransports(s, (reset) => json.readServerMetrics(reset)), inject: [SETTINGS, JSON_TRANSPORT] },
        PAYLOAD_ENDPOINTS_PROVIDER,
        { provide: APP_FILTER, useClass: ErrorsFilter },
        CASE_RUNNER_PROVIDER,
      ],
    };
  }
}
