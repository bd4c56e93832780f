import { isDeepStrictEqual } from 'node:util';
import type { ReplyCheck } from '@bench/samples';
import { buildItem } from './build';
import type { Payload } from './payload';

/**
 * Checks one reply body as verifyReply does for the blog's rows: the item count, and the first and
 * last items equal (every field, nested and repeated ones included) to what the builder makes.
 */
export function verifyPayloadReply(payload: Payload, body: unknown, expectedItems: number): ReplyCheck {
  const { field } = payload.names;
  const items = (body as Record<string, unknown> | null)?.[field];
  if (!Array.isArray(items)) return { ok: false, reason: `reply has no ${field} array` };
  if (items.length !== expectedItems) return { ok: false, reason: `expected ${expectedItems} ${field}, got ${items.length}` };
  for (const i of expectedItems === 0 ? [] : [0, expectedItems - 1]) {
    if (!isDeepStrictEqual(items[i], buildItem(payload, i))) {
      return { ok: false, reason: `${field}[${i}] differs from the builder's: ${JSON.stringify(items[i]).slice(0, 300)}` };
    }
  }
  return { ok: true };
}
