// server-b: the blog's gRPC API. Reads its settings, serves sample.SampleService, stops on SIGTERM.
import 'reflect-metadata';
import { exitWithParent, explainListenError, loadSettings, processSampler, stopOnSignals, warnOnMissingNodeOptions } from '@bench/config';
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
    throw new Error(explainListenError(error, { variable: 'SERVER_B_PORT', port: settings.serverBPort, host: settings.host }));
  }
  console.log(`server-b (gRPC, ${settings.variant}, ${settings.security.mode}) listening on ${url}`);
}

main().catch((error: unknown) => {
  console.error(`server-b: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
