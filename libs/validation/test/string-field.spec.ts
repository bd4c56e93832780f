import { parseStringField } from '../src/string-field';

describe('parseStringField', () => {
  it.each([[''], ['hello'], ['x'.repeat(10)]])('accepts %p', (raw) => {
    expect(parseStringField('content', raw, { maxLength: 10 })).toEqual({ ok: true, value: raw });
  });

  it.each([
    [undefined, 'required'],
    [null, 'required'],
    [42, 'type'],
    [['a'], 'type'],
    [{ a: 1 }, 'type'],
    ['x'.repeat(11), 'max'],
  ])('refuses %p (%s)', (raw, rule) => {
    const result = parseStringField('content', raw, { maxLength: 10 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatchObject({ field: 'content', rule });
      expect(result.error.message).toContain('content');
    }
  });
});
