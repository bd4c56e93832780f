// Runs inside the server namespace for calibration: accepts connections (a connect alone measures the
// RTT); a client that sends a decimal byte count and a newline gets that many bytes back, then EOF.
//   node probe-server.js <host>   → prints {"port": N} once listening on an ephemeral port
import * as net from 'node:net';
import { exitWithParent } from './exit-with-parent';

const [host] = process.argv.slice(2);
if (!host) {
  process.stderr.write('usage: node probe-server.js <host>\n');
  process.exit(2);
}

const CHUNK = Buffer.alloc(1 << 20, 0x5a);

function send(socket: net.Socket, bytes: number): void {
  let left = bytes;
  const pump = () => {
    while (left > 0) {
      const n = Math.min(left, CHUNK.length);
      left -= n;
      if (!socket.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) return void socket.once('drain', pump);
    }
    socket.end();
  };
  pump();
}

const server = net.createServer((socket) => {
  let request = '';
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk) => {
    request += chunk.toString('latin1');
    const newline = request.indexOf('\n');
    if (newline < 0) return;
    socket.removeAllListeners('data');
    send(socket, Number(request.slice(0, newline)) || 0);
  });
});
server.listen(0, host, () => process.stdout.write(`${JSON.stringify({ port: (server.address() as net.AddressInfo).port })}\n`));
server.on('error', (error) => {
  process.stderr.write(`probe-server: ${error.message}\n`);
  process.exit(1);
});
process.on('SIGTERM', () => process.exit(0));
exitWithParent();
