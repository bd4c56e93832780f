import type { Settings } from '@bench/config';
import { parseEnumField, parseIntField, type FieldResult } from '@bench/validation';
import type { CaseRequest } from './case-runner';
import { TRANSPORT_NAMES, type TransportName } from '@bench/transports';

/** Most untimed and timed calls one bench request may ask for. */
export const MAX_CALLS = 10_000;

/**
 * Most rows one POST /bench/run may ask for in all: rows × requests × calls (the cold call, the
 * warm-up and the timed runs). The bench's largest request is a visit's first of ①-3: 1,000,000 rows ×
 * (the cold call + the warm-up calls, 0 or 1 in the profiles) ≤ 2,000,000 rows (each timed run is a request of its
 * own); 10,000,000 leaves room for `--warmup 9` with ①-3, or a hand-made request of ten 1,000,000-row calls.
 * Without it one request (1,000,000 rows × 10,000 requests × 10,000 runs) asked for years of CPU.
 */
export const MAX_RUN_ROWS = 10_000_000;

/** Longest deadline one call may be given (an hour, as CALL_TIMEOUT_MS allows). */
export const MAX_DEADLINE_MS = 3_600_000;

/** Validates a POST /bench/run body, naming the first field that breaks a rule. */
export function parseCaseRequest(
  body: unknown,
  limits: Pick<Settings, 'maxRows' | 'maxParallel' | 'callTimeoutMs'>,
  payloads: readonly string[] = [],
  transports: readonly TransportName[] = TRANSPORT_NAMES,
): FieldResult<CaseRequest> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, error: { field: 'body', rule: 'type', message: 'body must be a JSON object (Content-Type: application/json)' } };
  }
  const input = body as Record<string, unknown>;
  const cold = input.cold ?? true;
  if (typeof cold !== 'boolean') return { ok: false, error: { field: 'cold', rule: 'type', message: 'cold must be true or false' } };
  const transport = parseEnumField('transport', input.transport, transports);
  if (!transport.ok) return transport;
  const rows = parseIntField('rows', input.rows, { min: 1, max: limits.maxRows });
  if (!rows.ok) return rows;
  const requests = parseIntField('requests', input.requests, { min: 1, max: limits.maxParallel });
  if (!requests.ok) return requests;
  const warmup = parseIntField('warmup', input.warmup ?? 1, { min: 0, max: MAX_CALLS });
  if (!warmup.ok) return warmup;
  const runs = parseIntField('runs', input.runs, { min: 0, max: MAX_CALLS });
  if (!runs.ok) return runs;
  // Absent: the client's own CALL_TIMEOUT_MS (a caller other than the bench, e.g. curl).
  const deadlineMs = parseIntField('deadlineMs', input.deadlineMs ?? limits.callTimeoutMs, { min: 1, max: MAX_DEADLINE_MS });
  if (!deadlineMs.ok) return deadlineMs;
  const value: CaseRequest = {
    transport: transport.value,
    rows: rows.value,
    requests: requests.value,
    warmup: warmup.value,
    runs: runs.value,
    cold,
    deadlineMs: deadlineMs.value,
  };
  const calls = (value.cold ? 1 : 0) + value.warmup + value.runs;
  const total = value.rows * value.requests * calls;
  if (total > MAX_RUN_ROWS) {
    return {
      ok: false,
      error: {
        field: 'body',
        rule: 'max',
        message: `rows × requests × calls (cold + warmup + runs) = ${value.rows} × ${value.requests} × ${calls} = ${total} rows, above the cap MAX_RUN_ROWS = ${MAX_RUN_ROWS} rows per /bench/run: split the work over several requests`,
      },
    };
  }
  if (input.payload === undefined) return { ok: true, value };
  if (payloads.length === 0) {
    // Clients without payload endpoints (bare) say so, rather than running the blog's rows instead.
    return { ok: false, error: { field: 'payload', rule: 'enum', message: 'payload: this client serves only the blog rows (no payload endpoints)' } };
  }
  const payload = parseEnumField('payload', input.payload, payloads);
  return payload.ok ? { ok: true, value: { ...value, payload: payload.value } } : payload;
}
