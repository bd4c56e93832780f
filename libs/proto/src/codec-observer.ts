/** Told about every sample.* message our gRPC codec encodes or decodes, with its size and the time it took. */
export interface CodecObserver {
  encoded?(bytes: number, ms: number): void;
  decoded?(bytes: number, ms: number): void;
}

let current: CodecObserver = {};

/**
 * Sets the process's observer (server-b times its encoding, the client its decoding and reply bytes).
 * Observation happens inside the serializers, where the buffer already is: no second encode.
 */
export function observeSampleCodec(observer: CodecObserver): void {
  current = observer;
}

export function codecObserver(): CodecObserver {
  return current;
}
