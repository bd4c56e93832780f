/** Nest injection token for the validated Settings of the running app. */
export const SETTINGS = Symbol('SETTINGS');

/** Nest injection token for the client's ControlAccess (control-access.ts): who may call its control API. */
export const CONTROL_ACCESS = Symbol('CONTROL_ACCESS');
