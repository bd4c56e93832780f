// Runs inside the client namespace for calibration; prints one JSON line.
//   node probe-client.js rtt <host> <port> <count>    TCP connect times (SYN → SYN-ACK), one after another
//   node probe-client.js fetch <host> <port> <bytes>   one bulk transfer server → client, timed
import * as net from 'node:net';

function connectOnce(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      resolve(Number(process.hrtime.bigint() - start) / 1e6);
      socket.destroy();
    });
    socket.once('error', reject);
  });
}

async function rtt(host: string, port: number, count: number): Promise<void> {
  const samplesMs: number[] = [];
  for (let i = 0; i < count; i++) samplesMs.push(await connectOnce(host, port));
  process.stdout.write(`${JSON.stringify({ samplesMs })}\n`);
}

/**
 * The steady rate is taken over the second half of the bytes: by then slow start is over (the
 * transfer is sized to last many RTTs), so it is the rate the path sustains, not the ramp-up.
 */
function fetch(host: string, port: number, bytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    let received = 0;
    let halfAt: bigint | null = null;
    let firstAt: bigint | null = null;
    const socket = net.connect({ host, port }, () => socket.write(`${bytes}\n`));
    socket.on('data', (chunk) => {
      firstAt ??= process.hrtime.bigint();
      received += chunk.length;
      if (halfAt === null && received >= bytes / 2) halfAt = process.hrtime.bigint();
    });
    socket.once('error', reject);
    socket.once('end', () => {
      const end = process.hrtime.bigint();
      const seconds = (from: bigint | null) => (from === null ? NaN : Number(end - from) / 1e9);
      const halfBytes = received - Math.ceil(bytes / 2);
      process.stdout.write(
        `${JSON.stringify({
          bytes: received,
          seconds: seconds(start),
          firstByteSeconds: firstAt === null ? NaN : Number(firstAt - start) / 1e9,
          averageMbit: (received * 8) / seconds(start) / 1e6,
          steadyMbit: (halfBytes * 8) / seconds(halfAt) / 1e6,
        })}\n`,
      );
      resolve();
    });
  });
}

async function main(): Promise<void> {
  const [mode, host, portText, nText] = process.argv.slice(2);
  const port = Number(portText);
  const n = Number(nText);
  if (!host || !Number.isInteger(port) || !Number.isInteger(n) || n <= 0 || (mode !== 'rtt' && mode !== 'fetch')) {
    process.stderr.write('usage: node probe-client.js rtt|fetch <host> <port> <count|bytes>\n');
    process.exit(2);
  }
  await (mode === 'rtt' ? rtt(host, port, n) : fetch(host, port, n));
}

main().catch((error: Error) => {
  process.stderr.write(`probe-client: ${error.message}\n`);
  process.exit(1);
});
