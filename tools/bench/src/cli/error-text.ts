// One way to turn whatever was thrown into the one line a tool prints or a result records.

/** The message of whatever was thrown. */
export function errorText(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
