// server-b: the blog's gRPC API. Reads its settings, serves sample.SampleService, stops on SIGTERM.
import 'reflect-metadata';
import { exitWithParent, explainListenError, loadSettings, MICROSERVICE_ENV, processSampler, stopOnSignals, warnOnMissingNodeOptions } from '@bench/config';
import { observeSampleCodec } from '@bench/proto';
import { createServerB } from './server';

async function main(): Promise<void> {
  exitWithParent('server-b');
  const settings = loadSettings();
  warnOnMissingNodeOptions(settings.variant, 'server-b');
  // Time protobuf encoding of every reply inside the serializer Nest calls.
  observeSampleCodec({ encoded: (_bytes, ms) => processSampler().addPhase('encode', ms) });
  const url = `${settings.host}:${settings.serverBPort}`;
  const app = await createServerB(settings, url);
  stopOnSignals(app, 'server-b');
  try {
    await app.listen();
  } catch (error) {
    // The TCP listener (nest-tcp) is the one other port server-b binds; a broker it cannot reach fails with its own message.
    const tcp = settings.microservices.serve.includes('nest-tcp') && String((error as { port?: number }).port ?? '') === String(settings.microservices.tcpPort);
    const where = tcp ? { variable: MICROSERVICE_ENV.tcpPort, port: settings.microservices.tcpPort } : { variable: 'SERVER_B_PORT', port: settings.serverBPort };
    throw new Error(explainListenError(error, { ...where, host: settings.host }));
  }
  const microservices = settings.microservices.serve.length > 0 ? ` and ${settings.microservices.serve.join(', ')}` : '';
  console.log(`server-b (gRPC${microservices}, ${settings.variant}, ${settings.security.mode}) listening on ${url}`);
}

main().catch((error: unknown) => {
  console.error(`server-b: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
