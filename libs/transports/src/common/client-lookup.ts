import { Agent as HttpAgent } from 'node:http';
import type { LookupFunction } from 'node:net';
import { isTuned, type Settings } from '@bench/config';
import { cachingLookup } from './cached-lookup';

/** The one cache of this client process: every connection to a server shares its answers, as a resolver cache would. */
const PROCESS_LOOKUP = cachingLookup();

/**
 * The lookup every new connection of this client makes to a server by name (tuning cached-lookup): the
 * process's caching lookup; null when the variant leaves each library to Node's dns.lookup (a lookup per
 * connection). Connections to an address look nothing up either way.
 */
export function lookupFor(settings: Settings): LookupFunction | null {
  return isTuned(settings.variant, 'cached-lookup') ? PROCESS_LOOKUP : null;
}

/** `{ lookup }` for net/tls connect options (agents, undici's connector, node:http2), or nothing. */
export function lookupOption(lookup: LookupFunction | null): { lookup?: LookupFunction } {
  return lookup ? { lookup } : {};
}

/** What Node's global http agent has (keep-alive, LIFO, 5-s socket timeout), on a pool of its own. */
export const GLOBAL_AGENT_OPTIONS = { keepAlive: true, scheduling: 'lifo' as const, timeout: 5000 };

/**
 * The http agent of axios's cleartext calls (the blog's JSON, readiness, metrics): Node's global agent
 * (undefined) as the blog had it, or, with cached-lookup, an agent with the global one's settings that
 * looks names up through the process's cache.
 */
export function httpAgentFor(settings: Settings): HttpAgent | undefined {
  const lookup = lookupFor(settings);
  return lookup ? new HttpAgent({ ...GLOBAL_AGENT_OPTIONS, lookup }) : undefined;
}
