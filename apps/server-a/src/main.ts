// server-a: the blog's JSON API. Reads its settings, serves GET /server-a/:count, stops on SIGTERM.
import 'reflect-metadata';
import { explainListenError, loadSettings, processSampler, stopOnSignals } from '@bench/config';
import { createServerA } from './http-platform';

async function main(): Promise<void> {
  const settings = loadSettings();
  processSampler();
  const app = await createServerA(settings);
  stopOnSignals(app, 'server-a');
  try {
    await app.listen(settings.serverAPort, settings.host);
  } catch (error) {
    throw new Error(explainListenError(error, { variable: 'SERVER_A_PORT', port: settings.serverAPort, host: settings.host }));
  }
  console.log(`server-a (JSON over HTTP, ${settings.variant}) listening on http://${settings.host}:${settings.serverAPort}`);
}

main().catch((error: unknown) => {
  console.error(`server-a: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
