import type { ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { helperScript } from './helpers';
import { spawnUntilFirstLine } from './spawn-ready';

/** sun_path holds 108 bytes including the terminating NUL. */
const UNIX_PATH_MAX = 107;

/** One exposed port: the host URL, and how to close it. */
export interface Bridge {
  hostUrl: string;
  close(): Promise<void>;
}

/**
 * Makes `address:port` in the client namespace reachable from the host as http://127.0.0.1:<port>,
 * without adding any interface or route to the host: a forwarder inside the namespace listens on a
 * unix socket in `workDir` (unix sockets cross network namespaces through the filesystem), and a
 * listener here on 127.0.0.1 pipes each connection to it. The bench→client hop is not part of what
 * the client times; it costs two local copies per request.
 */
export async function openBridge(wrap: (argv: string[]) => string[], workDir: string, address: string, port: number): Promise<Bridge> {
  const socketPath = path.join(workDir, `bridge-${port}.sock`);
  if (Buffer.byteLength(socketPath) > UNIX_PATH_MAX) {
    throw new Error(`the bridge's unix socket path is longer than ${UNIX_PATH_MAX} bytes (${socketPath}): use a shorter work dir`);
  }
  const { child } = await spawnUntilFirstLine(wrap([process.execPath, helperScript('forwarder'), socketPath, address, String(port)]));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((downstream) => {
    const upstream = net.connect(socketPath);
    downstream.setNoDelay(true);
    for (const socket of [downstream, upstream]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    }
    downstream.pipe(upstream).pipe(downstream);
    upstream.on('error', () => downstream.destroy());
    downstream.on('error', () => upstream.destroy());
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const hostUrl = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    hostUrl,
    close: async () => {
      sockets.forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stopChild(child);
    },
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
