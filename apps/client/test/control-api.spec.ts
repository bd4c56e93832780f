import request from 'supertest';
import { loadControlAccess } from '@bench/config';
import { buildRows } from '@bench/samples';
import { startClientAgainstFakes, type ClientAgainstFakes } from './client-against-fakes';

// The control API's guard (libs/config control-access.ts) and its one-at-a-time rule, on the Nest client.
describe('client: control API', () => {
  const token = 'a'.repeat(40);
  let fakes: ClientAgainstFakes;
  /** Rows server-a was asked for: a refused request must not reach it. */
  let served = 0;

  beforeAll(async () => {
    fakes = await startClientAgainstFakes({ callTimeoutMs: 30_000 }, loadControlAccess('0.0.0.0', { BENCH_TOKEN: token }));
    fakes.serverA.rows = (count) => (served++, buildRows(count));
  });
  afterAll(() => fakes.close());

  const http = () => request(fakes.client.getHttpServer());
  const bearer = `Bearer ${token}`;

  it.each([
    ['GET', '/bench/info'],
    ['GET', '/bench/path?samples=1&bulkBytes=1000'],
    ['POST', '/bench/run'],
    ['GET', '/client/call-a/1'],
  ])('%s %s without the token is 401, naming the header, and starts no work', async (method, path) => {
    const before = served;
    const response = await (method === 'GET' ? http().get(path) : http().post(path).send({ transport: 'json', rows: 1, requests: 1, runs: 1 })).expect(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(response.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', message: expect.stringContaining('Authorization: Bearer <BENCH_TOKEN>') });
    expect(served).toBe(before);
  });

  it('refuses a wrong token and a token without the Bearer scheme', async () => {
    await http().get('/bench/info').set('authorization', `Bearer ${'b'.repeat(40)}`).expect(401);
    await http().get('/bench/info').set('authorization', token).expect(401);
  });

  it('serves every route with the token, and the health checks without it', async () => {
    await http().get('/bench/info').set('authorization', bearer).expect(200);
    await http().get('/client/call-a/2').set('authorization', bearer).expect(200);
    await http().get('/health').expect(200);
    await http().get('/health/ready').expect(200);
  });

  it('answers GET /bench/path with 409 while a run is going (its transfers would disturb the run), and serves it after', async () => {
    fakes.serverA.delayMs = 3_000;
    try {
      const run = http().post('/bench/run').set('authorization', bearer).send({ transport: 'json', rows: 1, requests: 1, warmup: 0, runs: 1, cold: false }).then((r) => r);
      // The run holds the client once its request has arrived; poll until the path is refused.
      let status = 0;
      for (let i = 0; i < 50 && status !== 409; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (await http().get('/bench/path?samples=1&bulkBytes=1000').set('authorization', bearer)).status;
      }
      expect(status).toBe(409);
      expect((await run).status).toBe(200);
    } finally {
      fakes.serverA.delayMs = 0;
    }
    await http().get('/bench/path?samples=1&bulkBytes=1000').set('authorization', bearer).expect(200);
  });
});
