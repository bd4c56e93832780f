import type { Settings } from '@bench/config';
import { parseIntField, type FieldResult } from '@bench/validation';

/**
 * The blog's GetSamples as a Nest message pattern: every Nest microservice transport (nest-tcp,
 * nest-redis, …) sends it with ClientProxy.send() and server-b answers it with @MessagePattern(). A
 * string, so it is also a valid Redis channel, NATS subject, MQTT topic and Kafka topic name.
 */
export const SAMPLES_PATTERN = 'sample.GetSamples';

/** The pattern as a set of apps uses it: SAMPLES_PATTERN in the settings' namespace (MICROSERVICE_NAMESPACE), if any. */
export function samplesPattern(settings: Settings): string {
  return namespaced(settings, SAMPLES_PATTERN);
}

/** `name` in the settings' namespace: `<namespace>.<name>`, or `name` itself without one. */
export function namespaced(settings: Settings, name: string): string {
  return settings.microservices.namespace === '' ? name : `${settings.microservices.namespace}.${name}`;
}

/**
 * What a call sends: the row count, and the milliseconds the caller will wait (as gRPC's grpc-timeout
 * and the JSON transports' x-deadline-ms), so the server stops building a reply nobody will read.
 */
export interface SamplesMessage {
  count: number;
  deadlineMs: number;
}

/** Largest deadline a message may carry: CALL_TIMEOUT_MS's own bound (libs/config settings.ts). */
const MAX_DEADLINE_MS = 3_600_000;

/** The message's fields, checked: a count of 1 … maxRows, a deadline of 1 ms … 1 h; anything else is refused naming the field. */
export function readSamplesMessage(data: unknown, maxRows: number): FieldResult<SamplesMessage> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, error: { field: 'message', rule: 'type', message: `a ${SAMPLES_PATTERN} message is an object { count, deadlineMs }, got ${data === null ? 'null' : Array.isArray(data) ? 'an array' : `a ${typeof data}`}` } };
  }
  const fields = data as Record<string, unknown>;
  const count = parseIntField('count', fields.count, { min: 1, max: maxRows });
  if (!count.ok) return count;
  const deadline = parseIntField('deadlineMs', fields.deadlineMs, { min: 1, max: MAX_DEADLINE_MS });
  if (!deadline.ok) return deadline;
  return { ok: true, value: { count: count.value, deadlineMs: deadline.value } };
}
