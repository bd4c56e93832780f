/** Marks a request whose bytes were not a valid protobuf message (see samplePackageDefinition). */
const MALFORMED = Symbol('malformed');

/**
 * grpc-js answers a request it cannot deserialize with INTERNAL; ours are clients' mistakes, so the
 * deserializer hands the handler a marked request instead, and the handler answers INVALID_ARGUMENT.
 */
export function malformedRequest(reason: string): object {
  return { [MALFORMED]: reason };
}

/** Why a request could not be decoded, or undefined for a well-formed one. */
export function malformedReason(request: unknown): string | undefined {
  return typeof request === 'object' && request !== null ? (request as Record<symbol, string | undefined>)[MALFORMED] : undefined;
}
