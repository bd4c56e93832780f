// A caching name lookup for node:http's `lookup` option: the tuning against Node's default dns.lookup
// (getaddrinfo on the libuv thread pool, which asks the DNS server again for every new connection, each
// search domain in turn under a pod's ndots:5). Answers are kept for `ttlMs`, as a resolver cache would.
import * as dns from 'node:dns';
import type { LookupFunction } from 'node:net';

export function cachingLookup(ttlMs = 30_000, lookup: typeof dns.lookup = dns.lookup): LookupFunction {
  const cache = new Map<string, { at: number; addresses: dns.LookupAddress[] }>();
  return (hostname, options, callback) => {
    const key = `${hostname}/${options.family ?? 0}`;
    const answer = (addresses: dns.LookupAddress[]) => {
      if (options.all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    };
    const hit = cache.get(key);
    if (hit && performance.now() - hit.at < ttlMs) return void process.nextTick(answer, hit.addresses);
    lookup(hostname, { family: options.family as number | undefined, hints: options.hints, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      cache.set(key, { at: performance.now(), addresses });
      answer(addresses);
    });
  };
}
