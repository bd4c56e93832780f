import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeAgedConnections } from '../src/connection-age';

// MAX_CONNECTION_AGE_MS on HTTP/1.1: a connection past the age gets `Connection: close` on its next
// reply, which still arrives whole; the client then opens a new one (behind a Service: re-balanced).
describe('closeAgedConnections', () => {
  it('answers the first request after the age with Connection: close, and the reply whole', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    closeAgedConnections(server, 30);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ connection: string | undefined; body: string }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/', agent }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ connection: res.headers.connection, body }));
          })
          .on('error', reject);
      });
    try {
      await get();
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(await get()).toEqual({ connection: 'close', body: 'ok' });
      // A new connection: young again, kept alive.
      expect(await get()).toEqual({ connection: 'keep-alive', body: 'ok' });
    } finally {
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
