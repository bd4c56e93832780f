import * as grpc from '@grpc/grpc-js';
import { buildItems, ORDERS } from '@bench/payloads';
import { callUnary, startServerB, type StartedServerB } from './payload-server';

describe('server-b: ORDERS over gRPC', () => {
  let server: StartedServerB;

  beforeAll(async () => {
    server = await startServerB(ORDERS, 50);
  });
  afterAll(() => server.close());

  it('answers the builder items', async () => {
    const { error, reply } = await callUnary(server.client, ORDERS.names.method, { count: 3 });
    expect(error).toBeNull();
    expect(reply).toEqual({ orders: buildItems(ORDERS, 3) });
  });

  it.each([
    [{ count: 0 }, 'min'],
    [{}, 'min'],
    [{ count: 51 }, 'max'],
  ])('answers %p with INVALID_ARGUMENT (%s)', async (request, rule) => {
    const { error } = await callUnary(server.client, ORDERS.names.method, request);
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error?.details).toContain(`count: ${rule}`);
  });
});
