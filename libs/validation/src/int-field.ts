/** Why a field was refused: which field, which rule, and a sentence a person can act on. */
export interface FieldError {
  field: string;
  rule: 'integer' | 'min' | 'max' | 'required' | 'enum' | 'type';
  message: string;
}

export type FieldResult<T> = { ok: true; value: T } | { ok: false; error: FieldError };

export interface IntRange {
  min: number;
  max: number;
}

const DIGITS = /^[0-9]{1,16}$/;

/**
 * Reads a whole number in [min, max] from a path segment, query value or JSON value. Strings must be
 * plain decimal digits: `-1`, `1.5`, `1e3`, ` 7`, `0x10` and `` are refused rather than coerced,
 * because silently turning a typo into a different benchmark is worse than an error.
 */
export function parseIntField(field: string, raw: unknown, range: IntRange): FieldResult<number> {
  let value: number;
  if (raw === undefined || raw === null || raw === '') {
    return fail(field, 'required', `${field} is required (a whole number from ${range.min} to ${range.max})`);
  }
  if (typeof raw === 'string') {
    if (!DIGITS.test(raw)) {
      return fail(field, 'integer', `${field} must be a whole number written in digits, got ${JSON.stringify(raw)}`);
    }
    value = Number(raw);
  } else if (typeof raw === 'number') {
    if (!Number.isInteger(raw)) {
      return fail(field, 'integer', `${field} must be a whole number, got ${raw}`);
    }
    value = raw;
  } else {
    return fail(field, 'type', `${field} must be a whole number, got a ${typeof raw}`);
  }
  if (value < range.min) return fail(field, 'min', `${field} must be at least ${range.min}, got ${value}`);
  if (value > range.max) return fail(field, 'max', `${field} must be at most ${range.max}, got ${value}`);
  return { ok: true, value };
}

/** Reads one of a fixed set of strings. */
export function parseEnumField<T extends string>(field: string, raw: unknown, allowed: readonly T[]): FieldResult<T> {
  if (raw === undefined || raw === null || raw === '') {
    return fail(field, 'required', `${field} is required (one of ${allowed.join(', ')})`);
  }
  if (typeof raw !== 'string' || !allowed.includes(raw as T)) {
    return fail(field, 'enum', `${field} must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`);
  }
  return { ok: true, value: raw as T };
}

function fail(field: string, rule: FieldError['rule'], message: string): { ok: false; error: FieldError } {
  return { ok: false, error: { field, rule, message } };
}
