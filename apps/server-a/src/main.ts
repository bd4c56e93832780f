// server-a: the blog's JSON API. Reads its settings, serves GET /server-a/:count, stops on SIGTERM.
import 'reflect-metadata';
import { exitWithParent, explainListenError, loadSettings, processSampler, stopOnSignals, warnOnMissingNodeOptions } from '@bench/config';
import { observeSampleCodec } from '@bench/proto';
import { createServerA, createServerAH2, listenServerA } from './http-platform';

async function main(): Promise<void> {
  exitWithParent('server-a');
  const settings = loadSettings();
  warnOnMissingNodeOptions(settings.variant, 'server-a');
  processSampler();
  // proto-h1 replies are encoded by the metered gRPC codec (libs/proto getSamplesCodec): count its time as encoding.
  observeSampleCodec({ encoded: (_bytes, ms) => processSampler().addPhase('encode', ms) });
  const app = await createServerA(settings);
  const h2 = await createServerAH2(settings);
  stopOnSignals({ close: async () => void (await Promise.all([app.close(), h2.close()])) }, 'server-a');
  const listen = async (target: typeof app, port: number, variable: string) => {
    try {
      await listenServerA(target, port, settings);
    } catch (error) {
      throw new Error(explainListenError(error, { variable, port, host: settings.host }));
    }
  };
  await listen(app, settings.serverAPort, 'SERVER_A_PORT');
  await listen(h2, settings.serverAH2Port, 'SERVER_A_H2_PORT');
  const [scheme, second] = settings.security.mode === 'plain' ? ['http', 'HTTP/2 cleartext'] : ['https', `HTTP/2, ${settings.security.mode}`];
  console.log(`server-a (JSON over HTTP, ${settings.variant}) listening on ${scheme}://${settings.host}:${settings.serverAPort} (HTTP/1.1) and :${settings.serverAH2Port} (${second})`);
}

main().catch((error: unknown) => {
  console.error(`server-a: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
