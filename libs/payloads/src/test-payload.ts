import { definePayload } from './payload';
import { bool, double, int32, message, repeated, string } from './shape';

/** Every kind of field once, for this lib's own tests (not in the catalog, so never served). */
export const TEST_PAYLOAD = definePayload(
  'test-items',
  message('TestItem', {
    id: int32(),
    label: string(12),
    price: double(),
    active: bool(),
    tags: repeated(string(3), 2),
    owner: message('Owner', { name: string(5), vip: bool() }),
    parts: repeated(message('Part', { sku: string(8), qty: int32() }), 3),
  }),
);
