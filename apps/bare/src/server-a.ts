// bare server-a: the blog's JSON endpoint on node:http, no framework. Same routes, rows, validation
// and metrics as apps/server-a, so the difference between the two is Nest + Express.
import { exitWithParent, explainListenError, loadSettings, stopOnSignals } from '@bench/config';
import { closable, listen } from './http-util';
import { createJsonServer } from './json-server';

async function main(): Promise<void> {
  exitWithParent('server-a');
  const settings = loadSettings();
  const server = createJsonServer(settings);
  try {
    await listen(server, settings.serverAPort, settings.host);
  } catch (error) {
    throw new Error(explainListenError(error, { variable: 'SERVER_A_PORT', port: settings.serverAPort, host: settings.host }));
  }
  stopOnSignals(closable(server), 'server-a');
  const scheme = settings.security.mode === 'plain' ? 'http' : 'https';
  console.log(`server-a (bare node:http, JSON, ${settings.security.mode}) listening on ${scheme}://${settings.host}:${settings.serverAPort}`);
}

main().catch((error: unknown) => {
  console.error(`server-a: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
