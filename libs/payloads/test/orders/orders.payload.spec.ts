import { buildItems } from '../../src/build';
import { PAYLOADS } from '../../src/catalog';
import { renderProto } from '../../src/proto';
import { verifyPayloadReply } from '../../src/verify';
import { ORDERS } from '../../src/orders/orders.payload';

describe('the orders payload', () => {
  it('is in the catalog, so both servers serve it and the client calls it', () => {
    expect(PAYLOADS).toContain(ORDERS);
  });

  it('describes a valid contract', () => {
    expect(renderProto(ORDERS, 'spec')).toContain(`message ${ORDERS.item.name} {`);
  });

  it('builds items the client accepts after a JSON round trip', () => {
    const reply = JSON.parse(JSON.stringify({ orders: buildItems(ORDERS, 3) }));
    expect(verifyPayloadReply(ORDERS, reply, 3)).toEqual({ ok: true });
  });
});
