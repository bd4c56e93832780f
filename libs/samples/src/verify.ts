import { buildRow, SAMPLE_COLUMNS, type SampleRow } from './row';

/** What a reply must be: `expectedRows` rows, the first and last equal to what the servers build. */
export type ReplyCheck = { ok: true } | { ok: false; reason: string };

function sameRow(actual: unknown, expected: SampleRow): boolean {
  if (typeof actual !== 'object' || actual === null) return false;
  const row = actual as Record<string, unknown>;
  if (row.rowNum !== expected.rowNum) return false;
  return SAMPLE_COLUMNS.every((column) => row[column] === expected[column]);
}

/**
 * Checks one reply body (`{ samples: [...] }`) so a wrong answer fails its case loudly instead of
 * being timed as if it were right. Checks the count and the first and last rows, which is enough to
 * catch truncation, an off-by-one, a wrong codec or a server sending someone else's data.
 */
export function verifyReply(body: unknown, expectedRows: number): ReplyCheck {
  const samples = (body as { samples?: unknown } | null)?.samples;
  if (!Array.isArray(samples)) return { ok: false, reason: 'reply has no samples array' };
  if (samples.length !== expectedRows) {
    return { ok: false, reason: `expected ${expectedRows} rows, got ${samples.length}` };
  }
  if (expectedRows === 0) return { ok: true };
  const last = expectedRows - 1;
  if (!sameRow(samples[0], buildRow(0))) {
    return { ok: false, reason: `row 0 differs: ${JSON.stringify(samples[0])}` };
  }
  if (!sameRow(samples[last], buildRow(last))) {
    return { ok: false, reason: `row ${last} differs: ${JSON.stringify(samples[last])}` };
  }
  return { ok: true };
}
