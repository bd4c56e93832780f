/**
 * Longest echo `content` either server accepts, in characters (1 MiB of ASCII): the suites' largest
 * payload is ~100 KB, and a bound keeps one request from holding a server's memory hostage.
 */
export const ECHO_MAX_CONTENT = 1_048_576;

/**
 * The echo suites' payload: `bytes` printable ASCII characters (so its UTF-8, JSON and protobuf
 * string forms all carry exactly `bytes` bytes of content), the same for a given size on every run.
 */
export function buildEchoContent(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes < 0 || bytes > ECHO_MAX_CONTENT) {
    throw new RangeError(`echo content size must be a whole number from 0 to ${ECHO_MAX_CONTENT}, got ${bytes}`);
  }
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let text = '';
  for (let i = 0; i < bytes; i++) text += alphabet[(i * 7 + (i >> 6)) % alphabet.length];
  return text;
}

/** Ids the lookup call accepts (lookup.proto's int32, positive). */
export const USER_ID_RANGE = Object.freeze({ min: 1, max: 2_147_483_647 });
