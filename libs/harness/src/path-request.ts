import { BULK_MAX_BYTES } from '@bench/config';
import { parseIntField, type FieldResult } from '@bench/validation';

/** What GET /bench/path may be asked: how many connects and pings, and how large a bulk transfer. */
export interface PathRequest {
  samples: number;
  bulkBytes: number;
}

export const PATH_DEFAULTS: Readonly<PathRequest> = Object.freeze({ samples: 10, bulkBytes: 8 * 1024 * 1024 });

/** Validates GET /bench/path's query (absent fields take PATH_DEFAULTS), naming the first field that breaks a rule. */
export function parsePathRequest(query: { samples?: unknown; bulkBytes?: unknown }): FieldResult<PathRequest> {
  const samples = parseIntField('samples', query.samples ?? PATH_DEFAULTS.samples, { min: 1, max: 100 });
  if (!samples.ok) return samples;
  const bulkBytes = parseIntField('bulkBytes', query.bulkBytes ?? PATH_DEFAULTS.bulkBytes, { min: 1, max: BULK_MAX_BYTES });
  if (!bulkBytes.ok) return bulkBytes;
  return { ok: true, value: { samples: samples.value, bulkBytes: bulkBytes.value } };
}
