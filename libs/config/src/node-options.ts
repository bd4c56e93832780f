import { nodeOptionsFor, type NestVariant } from './tunings';

/**
 * The variant's Node options this process did not start with (none when every one is in force): an app
 * started by hand or by a container without them runs a different configuration than its name says.
 */
export function missingNodeOptions(variant: NestVariant, execArgv: readonly string[], nodeOptionsEnv: string | undefined): string[] {
  const given = new Set([...execArgv, ...(nodeOptionsEnv ?? '').split(/\s+/)].filter(Boolean));
  return nodeOptionsFor(variant)
    .split(' ')
    .filter((option) => option && !given.has(option));
}

/** Says on stderr, once at start, which of its variant's Node options this app runs without (and how to set them). */
export function warnOnMissingNodeOptions(variant: NestVariant, app: string): void {
  const missing = missingNodeOptions(variant, process.execArgv, process.env.NODE_OPTIONS);
  if (missing.length === 0) return;
  console.warn(`${app}: VARIANT=${variant} expects NODE_OPTIONS="${nodeOptionsFor(variant)}" (missing ${missing.join(' ')}): start it with them, or its figures are not ${variant}'s`);
}
