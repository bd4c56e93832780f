import { Readable } from 'node:stream';
import { stopOnAbort } from './reply-slices';
import { buildRowRange, type RowStreamPhases } from './row';

/**
 * Rows a streamed reply builds and encodes at a time: ~260 KB of text. Measured (libs/config tunings.ts,
 * stream-json-replies): 250 and 4,000 rows were slower at 1,000,000 rows.
 */
export const NDJSON_CHUNK_ROWS = 1_000;

export type { RowStreamPhases };

/**
 * Values as the stream sends them: NDJSON whose every line is a JSON array of up to `chunkRows`
 * consecutive values (one chunk), each line ending in a newline. One array per chunk rather than one
 * value per line: measured faster both ways (see NDJSON_CHUNK_ROWS's tuning, stream-json-replies).
 */
export function encodeNdjson(values: readonly unknown[], chunkRows = NDJSON_CHUNK_ROWS): string {
  let text = '';
  for (let start = 0; start < values.length; start += chunkRows) text += encodeChunk(values.slice(start, start + chunkRows));
  return text;
}

/** One line of the stream: a chunk of values as one JSON array. */
function encodeChunk(values: readonly unknown[]): string {
  return JSON.stringify(values) + '\n';
}

/**
 * Rows 0 … count-1 as an NDJSON byte stream (one line per chunk: encodeNdjson) that builds the next `chunkRows` rows only when its reader
 * asks for more: piped into a response, that is when the socket has taken the previous chunk (pipe
 * pauses on a full write buffer and resumes on 'drain'), so at most one chunk waits in memory, never
 * the whole body. A reader that goes away destroys the stream, and no further rows are built; so does
 * `signal` (the caller's deadline: a client whose deadline passed may still be reading).
 */
export function ndjsonRowStream(count: number, phases?: RowStreamPhases, chunkRows = NDJSON_CHUNK_ROWS, signal?: AbortSignal): Readable {
  let next = 0;
  const stream = new Readable({
    // One chunk is ~260 KB: a smaller high-water mark than that keeps exactly one chunk ahead.
    highWaterMark: 16 * 1024,
    read() {
      if (next >= count) return void this.push(null);
      const end = Math.min(count, next + chunkRows);
      const built = performance.now();
      const rows = buildRowRange(next, end);
      const encoded = performance.now();
      const text = encodeChunk(rows);
      phases?.('build', encoded - built);
      phases?.('encode', performance.now() - encoded);
      next = end;
      this.push(text);
    },
  });
  stopOnAbort(stream, signal, () => (next >= count ? undefined : `NDJSON reply of ${count} rows (after ${next})`));
  return stream;
}
