/** A setting the environment gives that the apps cannot run with: they stop at start-up, naming the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
