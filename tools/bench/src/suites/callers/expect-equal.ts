/** Rejects with what differs, so a transport that corrupts payloads fails its cell instead of being timed. */
export function expectEqual<T>(what: string, actual: T, expected: T): void {
  if (actual !== expected) {
    const show = (v: T) => (typeof v === 'string' && v.length > 40 ? `${v.length} characters` : JSON.stringify(v));
    throw new Error(`${what}: expected ${show(expected)}, got ${show(actual)}`);
  }
}
