import type { Readable } from 'node:stream';
import { jsonRowsStream, NDJSON_MEDIA_TYPE, ndjsonRowStream, samplesJsonLength, WHOLE_REPLY_MAX_ROWS, type RowStreamPhases } from '@bench/samples';

// json's server binding: the blog's route and how its replies are framed, for every server that serves
// it (server-a's Nest controller on Express or Fastify, json-h2's HTTP/2 listener too, and apps/bare's node:http server).

/** The route's folder, `/server-a/:count` (Nest's controller path; the client's SAMPLES_ROUTE). */
export const JSON_ROWS_CONTROLLER = 'server-a';

/** The route as a path to match outside Nest: its one segment is the count. */
export const JSON_ROWS_PATH = /^\/server-a\/([^/]*)$/;

/** The media type of a whole or sliced JSON reply. */
export const JSON_MEDIA_TYPE = 'application/json; charset=utf-8';

/**
 * How a reply of `count` rows goes out: `whole`, `{ "samples": [...] }` serialized by the server its own
 * way (Nest's serializer, bare's JSON.stringify, both timed); `sliced`, the same bytes with the same
 * Content-Length, produced a slice at a time as the socket takes them (more than WHOLE_REPLY_MAX_ROWS
 * rows: a caller that stops reading holds one slice, and one whose deadline passes or that goes away
 * stops the work within a slice); `ndjson`, the rows as a paced NDJSON stream, for a caller that asked
 * for it where the server offers it.
 */
export type JsonRowsReply = { kind: 'whole' } | { kind: 'sliced'; type: string; length: number; stream: Readable } | { kind: 'ndjson'; type: string; stream: Readable };

export interface JsonRowsFraming {
  /** The caller asked for application/x-ndjson and this server streams it. */
  ndjson: boolean;
  /** The caller's signal (its deadline, its going away), made only for a reply that can stop part-way. */
  signal(): AbortSignal;
  /** Where a streamed reply's build and encode time is counted. */
  phases: RowStreamPhases;
}

export function jsonRowsReply(count: number, framing: JsonRowsFraming): JsonRowsReply {
  if (framing.ndjson) return { kind: 'ndjson', type: NDJSON_MEDIA_TYPE, stream: ndjsonRowStream(count, framing.phases, undefined, framing.signal()) };
  if (count <= WHOLE_REPLY_MAX_ROWS) return { kind: 'whole' };
  const stream = jsonRowsStream(count, { signal: framing.signal(), phases: framing.phases, what: 'server-a JSON reply' });
  return { kind: 'sliced', type: JSON_MEDIA_TYPE, length: samplesJsonLength(count), stream };
}
