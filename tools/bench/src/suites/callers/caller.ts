/**
 * One way to make a call, over a connection of its own: the suites' transport adapters (gRPC unary,
 * gRPC bidirectional stream, HTTP/1.1 with or without keep-alive) all have this shape, so a transport is
 * a record naming its adapter and the suites' loops never know which transport they drive.
 */
export interface Caller {
  /**
   * One call: send, wait for the whole reply, decode and check it (a wrong reply rejects). Resolves
   * with the TCP connect time in ms when this call had to open a connection, else undefined.
   */
  call(): Promise<number | undefined>;
  /** Closes the connection or stream; the caller is not used afterwards. */
  close(): Promise<void>;
}

/** Rejects with what differs, so a transport that corrupts payloads fails its cell instead of being timed. */
export function expectEqual<T>(what: string, actual: T, expected: T): void {
  if (actual !== expected) {
    const show = (v: T) => (typeof v === 'string' && v.length > 40 ? `${v.length} characters` : JSON.stringify(v));
    throw new Error(`${what}: expected ${show(expected)}, got ${show(actual)}`);
  }
}
