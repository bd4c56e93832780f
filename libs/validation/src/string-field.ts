import type { FieldResult } from './int-field';

/**
 * Reads a string of at most maxLength characters (an empty string is a valid echo). Numbers, objects
 * and missing values are refused, not stringified: an echo that changes its input is no echo.
 */
export function parseStringField(field: string, raw: unknown, limits: { maxLength: number }): FieldResult<string> {
  if (raw === undefined || raw === null) {
    return { ok: false, error: { field, rule: 'required', message: `${field} is required (a string of at most ${limits.maxLength} characters)` } };
  }
  if (typeof raw !== 'string') {
    return { ok: false, error: { field, rule: 'type', message: `${field} must be a string, got a ${Array.isArray(raw) ? 'array' : typeof raw}` } };
  }
  if (raw.length > limits.maxLength) {
    return { ok: false, error: { field, rule: 'max', message: `${field} must be at most ${limits.maxLength} characters, got ${raw.length}` } };
  }
  return { ok: true, value: raw };
}
