import { definePayload, type ItemOf } from '../payload';
import { bool, double, int32, message, repeated, string } from '../shape';

/**
 * The orders endpoint's data: the one place to describe it. Change the fields below (names, types,
 * nesting, string lengths, list lengths) and run the bench: `nx run payloads:generate` rewrites
 * proto/payloads/orders.proto from this shape, both servers serve exactly what it builds, and the
 * client checks every reply against it.
 *
 * Words: int32(), double(), bool(), string(length), message('Name', { … }), repeated(field, count).
 * Field numbers follow the order of the fields; values are made from the item number (build.ts).
 */
export const ORDERS = definePayload(
  'orders',
  message('Order', {
    id: int32(),
    reference: string(36),
    customer: message('Customer', { id: int32(), name: string(40), email: string(48), vip: bool() }),
    shipping: message('Address', { street: string(64), city: string(32), postcode: string(10), country: string(2) }),
    lines: repeated(
      message('OrderLine', { sku: string(24), description: string(120), quantity: int32(), unitPrice: double(), taxable: bool() }),
      5,
    ),
    subtotal: double(),
    tax: double(),
    total: double(),
    paid: bool(),
    notes: string(200),
  }),
);

export type Order = ItemOf<typeof ORDERS>;
