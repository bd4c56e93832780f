// The names of the apps the bench starts, in a module of their own: apps.ts starts them, pinning.ts
// gives them cores and variants.ts their entry points, and none of those needs the others for a name.

/** The three apps the bench starts for a variant, each from its production build (run with plain node). */
export const APP_NAMES = ['server-a', 'server-b', 'client'] as const;
export type AppName = (typeof APP_NAMES)[number];
