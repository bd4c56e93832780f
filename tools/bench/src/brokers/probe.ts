// A broker is ready when it answers its own protocol (NATS's PONG, Redis's +PONG, AMQP's
// Connection.Start, MQTT's CONNACK, Kafka's ApiVersions), not when a port opens or a sleep ends. The
// probe runs here, or inside the broker's namespace as a one-off `node -e` of the same function.
import { spawn } from 'node:child_process';
import type { Probe } from './contract';

/**
 * Connects to host:port, sends the bytes and resolves true once the reply (read as latin1) matches,
 * false on a refusal, a close or `timeoutMs`. Self-contained (requires inside), so that its source
 * runs as `node -e` in a namespace.
 */
export function probeOnce(host: string, port: number, sendHex: string, replySource: string, timeoutMs: number): Promise<boolean> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const net = require('node:net') as typeof import('node:net');
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let reply = '';
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => socket.write(Buffer.from(sendHex, 'hex')));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('latin1');
      if (new RegExp(replySource).test(reply)) done(true);
    });
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}

/** The probe as a command run in a namespace: exits 0 when the broker answered. */
export function probeArgv(host: string, port: number, probe: Probe, timeoutMs: number): string[] {
  const source = `(${probeOnce.toString()})(process.argv[1], Number(process.argv[2]), process.argv[3], process.argv[4], Number(process.argv[5])).then((ok) => process.exit(ok ? 0 : 1))`;
  return [process.execPath, '-e', source, host, String(port), probe.send.toString('hex'), probe.reply.source, String(timeoutMs)];
}

/** One probe, here (`wrap` null) or through `wrap` (into a namespace). */
export function probe(host: string, port: number, check: Probe, wrap: ((argv: readonly string[]) => string[]) | null, timeoutMs = 2000): Promise<boolean> {
  if (!wrap) return probeOnce(host, port, check.send.toString('hex'), check.reply.source, timeoutMs);
  const [program, ...args] = wrap(probeArgv(host, port, check, timeoutMs));
  return new Promise((resolve) => {
    const child = spawn(program, args, { stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}
