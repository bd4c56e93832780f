/** Nest injection token for the validated Settings of the running app. */
export const SETTINGS = Symbol('SETTINGS');
