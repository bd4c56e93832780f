import { parseEnumField, parseIntField } from '../src/int-field';

const range = { min: 1, max: 1_000_000 };

describe('parseIntField', () => {
  it.each([
    ['1', 1],
    ['1000000', 1_000_000],
    [42, 42],
  ])('accepts %p', (raw, expected) => {
    expect(parseIntField('count', raw, range)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['abc', 'integer'],
    ['-1', 'integer'],
    ['1.5', 'integer'],
    ['1e3', 'integer'],
    [' 7', 'integer'],
    ['0x10', 'integer'],
    ['99999999999999999', 'integer'],
    [1.5, 'integer'],
    [Number.NaN, 'integer'],
    ['', 'required'],
    [undefined, 'required'],
    [null, 'required'],
    [true, 'type'],
    [{}, 'type'],
    ['0', 'min'],
    [-3, 'min'],
    ['1000001', 'max'],
  ])('refuses %p with rule %s', (raw, rule) => {
    const result = parseIntField('count', raw, range);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.field).toBe('count');
      expect(result.error.rule).toBe(rule);
      expect(result.error.message).toContain('count');
    }
  });
});

describe('parseEnumField', () => {
  it('accepts a listed value and refuses others', () => {
    expect(parseEnumField('transport', 'grpc', ['json', 'grpc'])).toEqual({ ok: true, value: 'grpc' });
    expect(parseEnumField('transport', 'xml', ['json', 'grpc'])).toMatchObject({ ok: false, error: { rule: 'enum' } });
    expect(parseEnumField('transport', undefined, ['json', 'grpc'])).toMatchObject({ ok: false, error: { rule: 'required' } });
  });
});
