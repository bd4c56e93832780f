import * as net from 'node:net';

/*
 * Ports come from below Linux's ephemeral range (32768–60999 by default). A port the kernel handed
 * out with listen(0) is itself an ephemeral port: once closed, the next outgoing connection of any
 * process (a test firing 1,000 parallel requests makes a thousand) may take it before the app under
 * test binds it, which failed a test with EADDRINUSE. Below that range only listeners compete. The
 * bench starts its apps on such ports too: across a stage the blog's ②-3 client leaves thousands of its
 * ephemeral ports in TIME_WAIT, and the next set's client could not listen on one the host called free.
 */
const LOWEST = 20_000;
const SPAN = 12_000;
const ATTEMPTS = 50;

/** Ports this process has handed out already, so two calls in a row never return the same one. */
const given = new Set<number>();

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A TCP port that was free on 127.0.0.1 a moment ago and is outside the ephemeral range, for apps and tests that start servers. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * SPAN);
    if (given.has(port)) continue;
    if (await canListen(port)) {
      given.add(port);
      return port;
    }
  }
  throw new Error(`no free port found in ${LOWEST}–${LOWEST + SPAN - 1} after ${ATTEMPTS} attempts`);
}
