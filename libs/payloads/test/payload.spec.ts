import { definePayload, payloadNames } from '../src/payload';
import { int32, message, repeated, string } from '../src/shape';

describe('payloadNames', () => {
  it('derives every name of the endpoint from its kebab-case name', () => {
    expect(payloadNames('order-lines')).toEqual({
      route: 'order-lines',
      protoPackage: 'payloads.order_lines',
      service: 'OrderLinesService',
      method: 'GetOrderLines',
      param: 'GetOrderLinesParam',
      reply: 'OrderLines',
      field: 'orderLines',
    });
  });

  it.each(['Orders', 'order_lines', '1orders', 'orders-', ''])('refuses %p', (name) => {
    expect(() => payloadNames(name)).toThrow('kebab-case');
  });
});

describe('shape words', () => {
  it('refuse names protobuf or the item type could not use', () => {
    expect(() => message('order', { id: int32() })).toThrow('PascalCase');
    expect(() => message('Order', { 'line-id': int32() })).toThrow('camelCase');
    expect(() => message('Order', {})).toThrow('at least one field');
    expect(() => string(-1)).toThrow('≥ 0');
    expect(() => repeated(int32(), 1.5)).toThrow('whole number');
  });

  it('keep the declaration', () => {
    const payload = definePayload('orders', message('Order', { id: int32() }));
    expect(payload.item).toEqual({ kind: 'message', name: 'Order', fields: { id: { kind: 'int32' } } });
    expect(Object.isFrozen(payload)).toBe(true);
  });
});
