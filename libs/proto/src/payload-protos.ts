import { PAYLOADS, payloadProtoPath } from '@bench/payloads';

/**
 * The payload endpoints' contracts: one .proto per payload of libs/payloads, written from its shape
 * by `nx run payloads:generate` (a dependency of every build and test that loads them).
 */
export const PAYLOAD_PROTOS: readonly string[] = PAYLOADS.map((payload) => payloadProtoPath(payload.names.route));

/** Their proto packages (`payloads.<name>`), each served by server-b beside the fixed ones. */
export const PAYLOAD_PACKAGES: readonly string[] = PAYLOADS.map((payload) => payload.names.protoPackage);
