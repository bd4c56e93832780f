import type { Payload } from './payload';
import { ORDERS } from './orders/orders.payload';

/**
 * Every payload endpoint, in the order they were added. `nx g ./tools/bench:endpoint` appends here;
 * the .proto files, server-b's gRPC packages and the client's calls all follow this list.
 */
export const PAYLOADS: readonly Payload[] = Object.freeze([
  ORDERS,
]);

/** The payload of that name, or undefined. */
export function findPayload(name: string): Payload | undefined {
  return PAYLOADS.find((payload) => payload.name === name);
}
