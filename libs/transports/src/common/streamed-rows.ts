import { isTuned, type Settings } from '@bench/config';
import type { ReplyMeter } from './reply-meter';
import { NDJSON_FROM_ROWS, NDJSON_MEDIA_TYPE, readNdjson } from '@bench/samples';

/** When a JSON transport asks for its rows as an NDJSON stream, and which reply field they make. */
export interface RowStreaming {
  fromRows: number;
  field: string;
}

/** server-a's blog route, the one that can stream its rows (SamplesController). */
export const SAMPLES_ROUTE = '/server-a/';

/** Tuned (stream-json-replies): the blog route's large replies are asked for as a stream; null: never. */
export function rowStreamingFor(settings: Settings, routePrefix: string): RowStreaming | null {
  return routePrefix === SAMPLES_ROUTE && isTuned(settings.variant, 'stream-json-replies') ? { fromRows: NDJSON_FROM_ROWS, field: 'samples' } : null;
}

/** The request headers that ask for a stream, when a call of `rows` rows should (else none). */
export function streamHeaders(streaming: RowStreaming | null, rows: number): Record<string, string> {
  return streaming !== null && rows >= streaming.fromRows ? { accept: NDJSON_MEDIA_TYPE } : {};
}

/**
 * A streamed reply, parsed chunk by chunk as it arrives, as the reply a one-body call returns
 * (`{ samples: [...] }`), so the case runner checks its rows as it checks every reply. The parse time
 * of its chunks is the client's decode phase; its bytes are the body's.
 */
export async function readStreamedRows(body: AsyncIterable<Buffer>, field: string, meter: ReplyMeter): Promise<Record<string, unknown[]>> {
  const read = await readNdjson(body);
  meter.record(read.bytes, read.parseMs);
  return { [field]: read.values };
}
