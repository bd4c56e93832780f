import { buildRows } from '@bench/samples';
import type { MessageKind } from './codecs';

/** One rung of the size ladder: a message of the blog's contract, from a few bytes to over 100 KB. */
export interface SizeRecord {
  id: string;
  kind: MessageKind;
  /** Rows in the message (0 for the request): the suite's maxRows setting leaves out the larger ones. */
  rows: number;
  build(): unknown;
}

function reply(rows: number): SizeRecord {
  return { id: `${rows.toLocaleString('en-US')} row${rows === 1 ? '' : 's'}`, kind: 'samples', rows, build: () => ({ samples: buildRows(rows) }) };
}

/**
 * The ladder, as data: the request (a few bytes), then replies of 1 to 1,000,000 rows (~100 B to
 * ~150 MB): 10,000 and 1,000,000 rows are cases ①-2 and ①-3's single replies.
 */
export const SIZES: readonly SizeRecord[] = Object.freeze([
  { id: 'GetSamplesParam', kind: 'param', rows: 0, build: () => ({ count: 1000 }) },
  ...[1, 10, 100, 1_000, 10_000, 1_000_000].map(reply),
]);

/** The rungs of at most `maxRows` rows. */
export function sizesUpTo(maxRows: number): SizeRecord[] {
  return SIZES.filter((s) => s.rows <= maxRows);
}
