/** A codec's Uint8Array as the Buffer grpc-js and HTTP bodies want, without copying its bytes. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
