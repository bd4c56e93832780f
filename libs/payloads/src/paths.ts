import * as path from 'node:path';

/** `proto/payloads/` at the workspace root, where `nx run payloads:generate` writes (src/ and dist/ sit at the same depth). */
export const PAYLOAD_PROTO_DIR = path.resolve(__dirname, '../../../proto/payloads');

/** The generated .proto file of a payload endpoint. */
export function payloadProtoPath(route: string): string {
  return path.join(PAYLOAD_PROTO_DIR, `${route}.proto`);
}
