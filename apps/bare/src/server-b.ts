// bare server-b: the blog's gRPC service on plain @grpc/grpc-js, no framework. Same contract, codec
// (proto-loader, shared options), rows, validation and metrics as apps/server-b.
import { exitWithParent, explainListenError, loadSettings, stopOnSignals } from '@bench/config';
import { grpcServerCredentials, limitGrpcSessions, logGrpcTlsStates } from '@bench/proto';
import { createGrpcServer } from './grpc-server';

async function main(): Promise<void> {
  exitWithParent('server-b');
  const settings = loadSettings();
  const server = createGrpcServer(settings);
  const url = `${settings.host}:${settings.serverBPort}`;
  try {
    await new Promise<number>((resolve, reject) =>
      server.bindAsync(url, grpcServerCredentials(settings.security), (error, port) => (error ? reject(error) : resolve(port))),
    );
  } catch (error) {
    throw new Error(explainListenError(error, { variable: 'SERVER_B_PORT', port: settings.serverBPort, host: settings.host }));
  }
  limitGrpcSessions(server, settings.handshakeTimeoutMs);
  if (settings.security.mode !== 'plain') logGrpcTlsStates(server, 'server-b');
  stopOnSignals({ close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())) }, 'server-b');
  console.log(`server-b (bare @grpc/grpc-js) (${settings.security.mode}) listening on ${url}`);
}

main().catch((error: unknown) => {
  console.error(`server-b: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
