import { promisify } from 'node:util';
import { gunzip as gunzipCallback, gzip as gzipCallback } from 'node:zlib';
import { Code, ConnectError } from '@connectrpc/connect';
import type { Compression } from '@connectrpc/connect/protocol';

const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);

/**
 * gzip for server-a's Connect handler, the one request compression it accepts (docs/reliability.md):
 * zlib inflates into at most `readMaxBytes` (maxOutputLength) and stops there, so a bomb costs at most
 * the limit; that stop is resource_exhausted (gRPC RESOURCE_EXHAUSTED), bytes that are not gzip are
 * invalid_argument. connect-node's own compressionGzip does the same, but tells the two apart with
 * `instanceof Error`, which fails for zlib's errors under Jest's separate realm (then every bomb read
 * `internal`); the error code alone is enough.
 */
export const cappedGzip: Compression = {
  name: 'gzip',
  compress: async (bytes) => new Uint8Array(await gzip(bytes)),
  decompress: async (bytes, readMaxBytes) => {
    if (bytes.length === 0) return new Uint8Array(0);
    try {
      return new Uint8Array(await gunzip(bytes, { maxOutputLength: readMaxBytes }));
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new ConnectError(`message is larger than ${readMaxBytes} bytes once inflated`, Code.ResourceExhausted);
      }
      throw new ConnectError('the body is not valid gzip', Code.InvalidArgument);
    }
  },
};
