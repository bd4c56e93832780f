/**
 * Streamed JSON replies (tuning stream-json-replies, and the bare variant): newline-delimited JSON,
 * asked for with an Accept header, so the same route still answers `{ "samples": [...] }` to any
 * caller that does not ask (the blog's client, curl, a browser).
 */
export const NDJSON_MEDIA_TYPE = 'application/x-ndjson';

/**
 * Replies of this many rows or more are asked for as a stream: the measured crossover (the tuning's
 * `why` in libs/config tunings.ts). Below it one body and one JSON.parse is as fast or faster.
 */
export const NDJSON_FROM_ROWS = 5_000;

/** Whether an Accept header lists the NDJSON media type (parameters and case ignored). */
export function acceptsNdjson(accept: string | string[] | undefined): boolean {
  const values = Array.isArray(accept) ? accept : accept === undefined ? [] : [accept];
  return values.some((value) => value.split(',').some((range) => isNdjson(range)));
}

/** Whether a Content-Type (or one media range) is the NDJSON media type. */
export function isNdjson(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return (value ?? '').split(';')[0].trim().toLowerCase() === NDJSON_MEDIA_TYPE;
}
