import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DEFAULT_SETTINGS } from '@bench/config';
import { buildItems, ORDERS } from '@bench/payloads';
import { createServerA } from '../src/http-platform';

describe.each(['blog', 'tuned'] as const)('server-a: GET /server-a/orders/:count (%s)', (variant) => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await createServerA({ ...DEFAULT_SETTINGS, variant, maxRows: 50 });
    await app.init();
    if (variant === 'tuned') await (app.getHttpAdapter().getInstance() as { ready(): Promise<void> }).ready();
  });
  afterAll(() => app.close());

  it('answers the builder items as JSON', async () => {
    const response = await request(app.getHttpServer()).get('/server-a/orders/3').expect(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.body).toEqual({ orders: buildItems(ORDERS, 3) });
  });

  it.each([
    ['abc', 'integer'],
    ['0', 'min'],
    ['51', 'max'],
  ])('answers %s with 400 naming the field and rule (%s)', async (count, rule) => {
    const response = await request(app.getHttpServer()).get(`/server-a/orders/${count}`).expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, field: 'count', rule });
  });
});
