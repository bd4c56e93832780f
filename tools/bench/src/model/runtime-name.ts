// The runtime a cell is keyed by, from a Node version: results name runtimes by their major.

/** The runtime of results written before runtimes were recorded and whose provenance names no Node. */
export const UNKNOWN_RUNTIME = 'unknown';

/**
 * The runtime name of a Node version string (`v20.20.2` → `20`): how a run from before --node is
 * labelled, from the Node its provenance recorded; UNKNOWN_RUNTIME when it recorded none.
 */
export function runtimeNameOf(nodeVersion: unknown): string {
  const major = typeof nodeVersion === 'string' ? /^v?(\d+)\./.exec(nodeVersion)?.[1] : undefined;
  return major ?? UNKNOWN_RUNTIME;
}
