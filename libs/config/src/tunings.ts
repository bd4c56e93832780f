import type { NestVariant } from './settings';

/** One change the tuned Nest variant makes to the blog's configuration, and why. */
export interface Tuning {
  id: string;
  app: 'client' | 'server-a' | 'server-b';
  transport: 'json' | 'grpc';
  change: string;
  why: string;
}

/** Every tuning, named and justified in one place (the README's table is this list). */
export const TUNINGS: readonly Tuning[] = Object.freeze([
  {
    id: 'keep-alive-pool',
    app: 'client',
    transport: 'json',
    change: 'axios gets an http.Agent that keeps up to MAX_PARALLEL idle sockets (keepAlive, lifo)',
    why:
      "Node's default agent keeps at most 256 idle sockets, so every burst wider than that closes the rest " +
      'and reopens them on the next burst: connection churn that no protocol needs',
  },
  {
    id: 'no-etag',
    app: 'server-a',
    transport: 'json',
    change: "Express 'etag' off",
    why: 'Express hashes every response body to build an ETag; service-to-service calls never send If-None-Match',
  },
]);

/** The tunings a variant applies (none for the blog's configuration). */
export function tuningsFor(variant: NestVariant): readonly Tuning[] {
  return variant === 'tuned' ? TUNINGS : [];
}

export function isTuned(variant: NestVariant, id: string): boolean {
  return tuningsFor(variant).some((t) => t.id === id);
}
