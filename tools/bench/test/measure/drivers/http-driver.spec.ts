import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClientDriver } from '../../../src/measure/drivers/http-driver';

const CALL = { transport: 'json' as const, rows: 1, requests: 1, warmup: 0, runs: 1, cold: false, deadlineMs: 1000 };

/** A stand-in client app answering POST /bench/run with `reply`. */
async function clientAnswering(reply: unknown): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('HttpClientDriver.runCase', () => {
  const good = { transport: 'json', rows: 1, requests: 1, coldMs: null, warmupMs: [], samplesMs: [0.8], bytesPerResponse: 90, rowsPerCall: 1, phases: null, client: null, server: null, serverMetricsError: null };

  it("returns the client's reply once it is checked", async () => {
    const client = await clientAnswering(good);
    try {
      await expect(new HttpClientDriver(client.url).runCase(CALL)).resolves.toEqual(good);
    } finally {
      await client.close();
    }
  });

  it('fails the case with the bad field named when the reply is not a case run', async () => {
    const client = await clientAnswering({ ...good, samplesMs: ['0.8'] });
    try {
      await expect(new HttpClientDriver(client.url).runCase(CALL)).rejects.toThrow(`POST ${client.url}/bench/run: the client's reply is not a case run: samplesMs[0] must be a finite number, got "0.8"`);
    } finally {
      await client.close();
    }
  });
});

describe('HttpClientDriver and the control token', () => {
  it('sends its token as Authorization: Bearer on every request, and none without one', async () => {
    const seen: (string | undefined)[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"variant":"blog"}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const token = 'c'.repeat(64);
      await new HttpClientDriver(url, token).describe();
      await new HttpClientDriver(url, token).path();
      expect(await new HttpClientDriver(url, token).notReady()).toBeNull();
      await new HttpClientDriver(url).describe();
      expect(seen).toEqual([`Bearer ${token}`, `Bearer ${token}`, `Bearer ${token}`, undefined]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("says the client's 401 in the error", async () => {
    const server = http.createServer((_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{"statusCode":401,"message":"this client\'s control API needs Authorization: Bearer <BENCH_TOKEN>"}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await expect(new HttpClientDriver(`http://127.0.0.1:${(server.address() as AddressInfo).port}`).describe()).rejects.toThrow('HTTP 401: this client\'s control API needs Authorization: Bearer <BENCH_TOKEN>');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
