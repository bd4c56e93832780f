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
  const rows = new Array<SampleRow>(count);
  for (let i = 0; i < count; i++) rows[i] = buildRow(i);
  return rows;
}
