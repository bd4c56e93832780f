// A caching name lookup for the `lookup` option of net/tls connect (node:http agents, undici's connector,
// node:http2 sessions): the tuning against Node's default dns.lookup (getaddrinfo on the libuv thread pool,
// which asks the DNS server again for every new connection, each search domain in turn under a pod's
// ndots:5). Used by the suites' cached-lookup caller and by the client app (tuning cached-lookup).
import type * as DnsModule from 'node:dns';
import type { LookupFunction } from 'node:net';

// The module object itself, looked up at each miss (a namespace import is a copy whose properties cannot be replaced).
const dns = process.getBuiltinModule('node:dns') as typeof DnsModule;

type Answer = (error: NodeJS.ErrnoException | null, addresses: DnsModule.LookupAddress[]) => void;

/** How long answers are kept unless told: as long as a resolver cache keeps them (Kubernetes' NodeLocal DNSCache: 30 s). */
export const LOOKUP_CACHE_TTL_MS = 30_000;

/**
 * A lookup that asks `lookup` (dns.lookup as it stands when asked) once per name, family and hints, and
 * answers from its cache for `ttlMs` after: every address (`all`) or the first, as the caller asks.
 * Lookups of a name already being looked up wait for that answer instead of asking again (a burst of new
 * connections, e.g. a pool opening 1,000 at once, makes one lookup, not 1,000 queued on libuv's pool).
 * Errors are passed on to every waiter and not kept: the next connection asks again.
 */
export function cachingLookup(ttlMs = LOOKUP_CACHE_TTL_MS, lookup?: typeof DnsModule.lookup): LookupFunction {
  const cache = new Map<string, { at: number; addresses: DnsModule.LookupAddress[] }>();
  const pending = new Map<string, Answer[]>();
  return (hostname, options, callback) => {
    const key = `${hostname}/${options.family ?? 0}/${options.hints ?? 0}`;
    const answer: Answer = (error, addresses) => {
      if (error) callback(error, '', 0);
      else if (options.all) (callback as unknown as (e: null, a: DnsModule.LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    };
    const hit = cache.get(key);
    if (hit && performance.now() - hit.at < ttlMs) return void process.nextTick(answer, null, hit.addresses);
    const waiting = pending.get(key);
    if (waiting) return void waiting.push(answer);
    pending.set(key, [answer]);
    const family = options.family as DnsModule.LookupAllOptions['family'];
    (lookup ?? dns.lookup)(hostname, { family, hints: options.hints, all: true }, (error, addresses) => {
      const answers = pending.get(key) ?? [];
      pending.delete(key);
      if (!error) cache.set(key, { at: performance.now(), addresses });
      for (const waiter of answers) waiter(error, error ? [] : addresses);
    });
  };
}
