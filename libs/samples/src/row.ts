/** One row of the blog's payload: a row number and ten short strings. */
export interface SampleRow {
  rowNum: number;
  columnA: string;
  columnB: string;
  columnC: string;
  columnD: string;
  columnE: string;
  columnF: string;
  columnG: string;
  columnH: string;
  columnI: string;
  columnJ: string;
}

export const SAMPLE_COLUMNS = [
  'columnA',
  'columnB',
  'columnC',
  'columnD',
  'columnE',
  'columnF',
  'columnG',
  'columnH',
  'columnI',
  'columnJ',
] as const;

/** Row `i` exactly as the blog built it: `{ rowNum: i, columnA: 'columnA' + i, ..., columnJ: 'columnJ' + i }`. */
export function buildRow(i: number): SampleRow {
  // A literal (not a loop over SAMPLE_COLUMNS) keeps one hidden class and matches the blog's cost.
  return {
    rowNum: i,
    columnA: 'columnA' + i,
    columnB: 'columnB' + i,
    columnC: 'columnC' + i,
    columnD: 'columnD' + i,
    columnE: 'columnE' + i,
    columnF: 'columnF' + i,
    columnG: 'columnG' + i,
    columnH: 'columnH' + i,
    columnI: 'columnI' + i,
    columnJ: 'columnJ' + i,
  };
}

/** Rows 0 … count-1, the payload both servers send for a request of `count` rows. */
export function buildRows(count: number): SampleRow[] {
  return buildRowRange(0, count);
}

/** Rows start … end-1: one chunk of a streamed reply. */
export function buildRowRange(start: number, end: number): SampleRow[] {
  const rows = new Array<SampleRow>(Math.max(0, end - start));
  for (let i = start; i < end; i++) rows[i - start] = buildRow(i);
  return rows;
}

/** Rows per message when a reply is streamed in chunks. */
export const STREAM_CHUNK_ROWS = 10_000;

/** Where a streamed or sliced reply reports the time it spends building rows and encoding them (the server's phases). */
export type RowStreamPhases = (phase: 'build' | 'encode', ms: number) => void;
