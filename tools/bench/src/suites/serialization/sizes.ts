import { buildRows } from '@bench/samples';
import type { MessageKind } from './codecs';

/** One rung of the size ladder: a message of the blog's contract, from a few bytes to over 100 KB. */
export interface SizeRecord {
  id: string;
  kind: MessageKind;
  build(): unknown;
}

/** The ladder, as data: the request (a few bytes), then replies of 1 to 1,000 rows (~100 B to ~135 KB). */
export const SIZES: readonly SizeRecord[] = Object.freeze([
  { id: 'GetSamplesParam', kind: 'param', build: () => ({ count: 1000 }) },
  { id: '1 row', kind: 'samples', build: () => ({ samples: buildRows(1) }) },
  { id: '10 rows', kind: 'samples', build: () => ({ samples: buildRows(10) }) },
  { id: '100 rows', kind: 'samples', build: () => ({ samples: buildRows(100) }) },
  { id: '1,000 rows', kind: 'samples', build: () => ({ samples: buildRows(1_000) }) },
]);
