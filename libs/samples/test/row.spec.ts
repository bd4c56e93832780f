import { buildRow, buildRowRange, buildRows, SAMPLE_COLUMNS } from '../src/row';

describe('buildRow', () => {
  it('builds row i as the blog did', () => {
    expect(buildRow(7)).toEqual({
      rowNum: 7,
      columnA: 'columnA7',
      columnB: 'columnB7',
      columnC: 'columnC7',
      columnD: 'columnD7',
      columnE: 'columnE7',
      columnF: 'columnF7',
      columnG: 'columnG7',
      columnH: 'columnH7',
      columnI: 'columnI7',
      columnJ: 'columnJ7',
    });
  });

  it('has exactly the proto fields, in order', () => {
    expect(Object.keys(buildRow(0))).toEqual(['rowNum', ...SAMPLE_COLUMNS]);
  });
});

describe('buildRows', () => {
  it('numbers rows from 0 to count-1', () => {
    const rows = buildRows(3);
    expect(rows.map((r) => r.rowNum)).toEqual([0, 1, 2]);
    expect(rows[2].columnJ).toBe('columnJ2');
  });

  it('returns an empty list for 0', () => {
    expect(buildRows(0)).toEqual([]);
  });
});

describe('buildRowRange', () => {
  it('builds the same rows as buildRows, in chunks', () => {
    const chunks = [buildRowRange(0, 4), buildRowRange(4, 7)];
    expect(chunks.flat()).toEqual(buildRows(7));
    expect(buildRowRange(5, 5)).toEqual([]);
  });
});
