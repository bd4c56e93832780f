import type { CaseRecord } from '../model';

/**
 * Cases of the payload endpoints (libs/payloads), in the blog's rows×requests notation: rows are items
 * of the endpoint's payload. `nx g ./tools/bench:endpoint` appends three per endpoint; edit or add freely.
 */
export const PAYLOAD_CASES: readonly CaseRecord[] = Object.freeze([
  { id: 'orders-1', aliases: [], payload: 'orders', rows: 1, requests: 1 },
  { id: 'orders-1k', aliases: [], payload: 'orders', rows: 1_000, requests: 1 },
  { id: 'orders-1×100', aliases: ['orders-1x100'], payload: 'orders', rows: 1, requests: 100 },
]);
