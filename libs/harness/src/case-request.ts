import { RUN_LIMITS, type Settings } from '@bench/config';
import { parseEnumField, parseIntField, type FieldResult } from '@bench/validation';
import type { CaseRequest } from './case-runner';
import { TRANSPORT_NAMES, type TransportName } from '@bench/transports';

/** Most untimed and timed calls one bench request may ask for. */
export const MAX_CALLS = 10_000;

/** Most rows one POST /bench/run may ask for in all: rows × requests × calls (RUN_LIMITS.rows says why). */
export const MAX_RUN_ROWS = RUN_LIMITS.rows.count;

/** Most calls one POST /bench/run may make in all: requests × (cold + warm-up + runs) (RUN_LIMITS.calls says why). */
export const MAX_RUN_CALLS = RUN_LIMITS.calls.count;

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
  const over = overRunLimits(value.rows, value.requests, calls);
  if (over !== null) return { ok: false, error: { field: 'body', rule: 'max', message: over } };
  if (input.payload === undefined) return { ok: true, value };
  if (payloads.length === 0) {
    // Clients without payload endpoints (bare) say so, rather than running the blog's rows instead.
    return { ok: false, error: { field: 'payload', rule: 'enum', message: 'payload: this client serves only the blog rows (no payload endpoints)' } };
  }
  const payload = parseEnumField('payload', input.payload, payloads);
  return payload.ok ? { ok: true, value: { ...value, payload: payload.value } } : payload;
}

/**
 * Why a run of `calls` calls (cold + warm-up + runs) of `requests` parallel requests of `rows` rows is
 * refused, naming the cap and the figure asked, or null within both caps.
 */
export function overRunLimits(rows: number, requests: number, calls: number): string | null {
  const total = rows * requests * calls;
  if (total > MAX_RUN_ROWS) {
    return `rows × requests × calls (cold + warmup + runs) = ${rows} × ${requests} × ${calls} = ${total} rows, above the cap MAX_RUN_ROWS = ${MAX_RUN_ROWS} rows per /bench/run: split the work over several requests`;
  }
  const made = requests * calls;
  if (made > MAX_RUN_CALLS) {
    return `requests × calls (cold + warmup + runs) = ${requests} × ${calls} = ${made} calls, above the cap MAX_RUN_CALLS = ${MAX_RUN_CALLS} calls per /bench/run: split the work over several requests`;
  }
  return null;
}
