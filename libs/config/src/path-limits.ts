import { parseIntField, type FieldResult } from '@bench/validation';

/** Largest bulk transfer (server-a's GET /path/bulk, server-b's PathProbe.Bulk) one request may ask for: the client's path probe reads it too. */
export const BULK_MAX_BYTES = 256 * 1024 * 1024;
/** Largest chunk of server-b's PathProbe.Bulk stream (gRPC messages stay far below any receive limit). */
export const BULK_MAX_CHUNK_BYTES = 4 * 1024 * 1024;
/** Chunk of PathProbe.Bulk when the request leaves chunkBytes 0. */
export const BULK_DEFAULT_CHUNK_BYTES = 256 * 1024;

export interface BulkRequestFields {
  bytes: number;
  chunkBytes: number;
}

/** A bulk transfer request of either server, validated: `chunkBytes` 0 or absent takes the default. */
export function parseBulkRequest(request: { bytes?: unknown; chunkBytes?: unknown }): FieldResult<BulkRequestFields> {
  const bytes = parseIntField('bytes', request.bytes, { min: 1, max: BULK_MAX_BYTES });
  if (!bytes.ok) return bytes;
  const chunk = request.chunkBytes === undefined || request.chunkBytes === 0 ? BULK_DEFAULT_CHUNK_BYTES : request.chunkBytes;
  const chunkBytes = parseIntField('chunkBytes', chunk, { min: 1, max: BULK_MAX_CHUNK_BYTES });
  if (!chunkBytes.ok) return chunkBytes;
  return { ok: true, value: { bytes: bytes.value, chunkBytes: chunkBytes.value } };
}
