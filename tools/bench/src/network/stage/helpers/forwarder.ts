// Runs inside the client namespace: listens on a unix socket (in the run's work dir, which the host
// sees too: unix sockets cross network namespaces through the filesystem) and joins each connection
// to the client app's TCP address. The host side (bridge.ts) connects to that socket.
//   node forwarder.js <unix-socket-path> <host> <port>
import * as fs from 'node:fs';
import * as net from 'node:net';
import { exitWithParent } from './exit-with-parent';

const [socketPath, host, portText] = process.argv.slice(2);
const port = Number(portText);
if (!socketPath || !host || !Number.isInteger(port)) {
  process.stderr.write('usage: node forwarder.js <unix-socket-path> <host> <port>\n');
  process.exit(2);
}

const removeSocket = () => fs.rmSync(socketPath, { force: true });
removeSocket();
const server = net.createServer((downstream) => {
  const upstream = net.connect({ host, port, noDelay: true });
  downstream.setNoDelay?.(true);
  downstream.pipe(upstream).pipe(downstream);
  upstream.on('error', () => downstream.destroy());
  downstream.on('error', () => upstream.destroy());
});
server.listen(socketPath, () => process.stdout.write('ready\n'));
server.on('error', (error) => {
  process.stderr.write(`forwarder: ${error.message}\n`);
  process.exit(1);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    removeSocket();
    process.exit(0);
  });
}
exitWithParent(removeSocket);
