import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { MAX_RUN_CALLS, MAX_RUN_ROWS } from '@bench/harness';
import { waitFor } from '@bench/testing';
import { startClientAgainstFakes, type ClientAgainstFakes } from './client-against-fakes';

// POST /bench/run cannot be made to work without end (issue 31): its total work is capped, and a caller
// that goes away ends its run, so the next caller is not refused as busy (409) until it would have ended.
describe('client POST /bench/run limits', () => {
  let fakes: ClientAgainstFakes;
  let url: string;

  beforeAll(async () => {
    fakes = await startClientAgainstFakes({ maxRows: 1_000_000, maxParallel: 200, callTimeoutMs: 30_000 });
    await fakes.client.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(fakes.client.getHttpServer().address() as AddressInfo).port}`;
  });
  // The abandoned run's call in flight settles on its own (2 s) before the stand-ins can close.
  afterAll(() => fakes.close(), 20_000);

  it('refuses work above the cap with 400 naming the cap and its value', async () => {
    const body = { transport: 'json', rows: 1_000_000, requests: 40, warmup: 0, runs: 1, cold: false };
    const response = await request(fakes.client.getHttpServer()).post('/bench/run').send(body).expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, field: 'body', rule: 'max' });
    expect(response.body.message).toContain(`MAX_RUN_ROWS = ${MAX_RUN_ROWS}`);
  });

  it('refuses a run of more calls than the cap with 400 naming the cap and the calls asked', async () => {
    const body = { transport: 'json', rows: 1, requests: 200, warmup: 0, runs: 999, cold: false };
    const response = await request(fakes.client.getHttpServer()).post('/bench/run').send(body).expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, field: 'body', rule: 'max' });
    expect(response.body.message).toContain(`MAX_RUN_CALLS = ${MAX_RUN_CALLS}`);
    expect(response.body.message).toContain('200 × 999 = 199800 calls');
  });

  it('a caller that disconnects ends its run: the next /bench/run is accepted shortly after, not 409', async () => {
    // Each call to the stand-in server-a takes 2 s: the first run (5 calls) would hold the runner for 10 s or more.
    fakes.serverA.delayMs = 2_000;
    const gone = http.request(`${url}/bench/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, agent: false });
    gone.on('error', () => undefined);
    gone.end(JSON.stringify({ transport: 'json', rows: 10, requests: 1, warmup: 0, runs: 5, cold: false, deadlineMs: 20_000 }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const busy = await request(fakes.client.getHttpServer()).post('/bench/run').send({ transport: 'grpc', rows: 1, requests: 1, runs: 1 });
    expect(busy.status).toBe(409);
    gone.destroy();
    fakes.serverA.delayMs = 0;
    let status = 0;
    await waitFor(
      'a /bench/run accepted after the first caller went away',
      async () => {
        status = (await request(fakes.client.getHttpServer()).post('/bench/run').send({ transport: 'grpc', rows: 1, requests: 1, runs: 1 })).status;
        return status !== 409;
      },
      2_000,
    );
    expect(status).toBe(200);
  }, 30_000);
});
