// bare server-b: the blog's gRPC service on plain @grpc/grpc-js, no framework. Same contract, codec
// (proto-loader, shared options), rows, validation and metrics as apps/server-b.
import { exitWithParent, explainListenError, loadSettings, stopOnSignals } from '@bench/config';
import { bindGrpcServer } from '@bench/proto';
import { createGrpcServer } from './grpc-server';

async function main(): Promise<void> {
  exitWithParent('server-b');
  const settings = loadSettings();
  const server = createGrpcServer(settings);
  const url = `${settings.host}:${settings.serverBPort}`;
  try {
    await bindGrpcServer(server, url, settings, 'server-b');
  } catch (error) {
    throw new Error(explainListenError(error, { variable: 'SERVER_B_PORT', port: settings.serverBPort, host: settings.host }));
  }
  stopOnSignals({ close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())) }, 'server-b');
  console.log(`server-b (bare @grpc/grpc-js) (${settings.security.mode}) listening on ${url}`);
}

main().catch((error: unknown) => {
  console.error(`server-b: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
