import type * as DnsModule from 'node:dns';
import type { LookupFunction } from 'node:net';
import { cachingLookup } from '../../src/common/cached-lookup';

// The caching lookup against a resolver whose answers the test sets, counting what it is asked
// (the real resolver, dns.lookup, answers the last test).

type Resolved = { error: NodeJS.ErrnoException } | { addresses: DnsModule.LookupAddress[] };

/** A resolver answering `answer()` asynchronously, as getaddrinfo does; `asked` lists the names asked. */
function resolver(answer: () => Resolved) {
  const asked: string[] = [];
  const lookup = ((hostname: string, _options: object, callback: (e: NodeJS.ErrnoException | null, a: DnsModule.LookupAddress[]) => void) => {
    asked.push(hostname);
    const resolved = answer();
    setImmediate(() => ('error' in resolved ? callback(resolved.error, []) : callback(null, resolved.addresses)));
  }) as unknown as typeof DnsModule.lookup;
  return { lookup, asked };
}

const one = (lookup: LookupFunction, name: string, options: DnsModule.LookupOptions = {}) =>
  new Promise<[NodeJS.ErrnoException | null, string, number]>((resolve) => lookup(name, options, (error, address, family) => resolve([error, address as string, family as number])));
const all = (lookup: LookupFunction, name: string) =>
  new Promise<DnsModule.LookupAddress[]>((resolve, reject) => lookup(name, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses as unknown as DnsModule.LookupAddress[]))));

const A = { address: '198.18.2.2', family: 4 };
const AAAA = { address: 'fd00::2', family: 6 };

describe('cachingLookup', () => {
  it('asks the resolver once per name within its TTL, answering the first address or all as asked', async () => {
    const dns = resolver(() => ({ addresses: [A, AAAA] }));
    const lookup = cachingLookup(60_000, dns.lookup);
    expect(await one(lookup, 'server-a.servers')).toEqual([null, A.address, 4]);
    expect(await all(lookup, 'server-a.servers')).toEqual([A, AAAA]);
    expect(await one(lookup, 'server-a.servers')).toEqual([null, A.address, 4]);
    expect(dns.asked).toEqual(['server-a.servers']);
    await one(lookup, 'server-b.servers');
    await one(lookup, 'server-a.servers', { family: 6 });
    expect(dns.asked).toEqual(['server-a.servers', 'server-b.servers', 'server-a.servers']);
  });

  it('lookups of a name already being looked up wait for that answer instead of asking again', async () => {
    const dns = resolver(() => ({ addresses: [A] }));
    const lookup = cachingLookup(60_000, dns.lookup);
    const answers = await Promise.all(Array.from({ length: 1_000 }, () => one(lookup, 'server-a.servers')));
    expect(new Set(answers.map((a) => a.join()))).toEqual(new Set([[null, A.address, 4].join()]));
    expect(dns.asked).toHaveLength(1);
  });

  it('asks again once the TTL has passed, and answers what the resolver now says', async () => {
    let address = A.address;
    const dns = resolver(() => ({ addresses: [{ address, family: 4 }] }));
    const lookup = cachingLookup(30, dns.lookup);
    expect((await one(lookup, 'server-a.servers'))[1]).toBe(A.address);
    address = '198.18.2.3';
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await one(lookup, 'server-a.servers'))[1]).toBe('198.18.2.3');
    expect(dns.asked).toHaveLength(2);
  });

  it('passes an error to every lookup waiting for it and keeps none: the next lookup asks again', async () => {
    let failing = true;
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND server-a.servers'), { code: 'ENOTFOUND' });
    const dns = resolver(() => (failing ? { error: notFound } : { addresses: [A] }));
    const lookup = cachingLookup(60_000, dns.lookup);
    const failed = await Promise.all([one(lookup, 'server-a.servers'), one(lookup, 'server-a.servers')]);
    expect(failed.map(([error]) => error?.code)).toEqual(['ENOTFOUND', 'ENOTFOUND']);
    expect(dns.asked).toHaveLength(1);
    failing = false;
    expect(await one(lookup, 'server-a.servers')).toEqual([null, A.address, 4]);
    expect(dns.asked).toHaveLength(2);
  });

  it('asks dns.lookup by default, as it stands when asked', async () => {
    const dns = process.getBuiltinModule('node:dns') as typeof DnsModule;
    const real = dns.lookup;
    const asked: string[] = [];
    dns.lookup = ((hostname: string, ...rest: unknown[]) => {
      asked.push(hostname);
      return (real as (...args: unknown[]) => void)(hostname, ...rest);
    }) as typeof dns.lookup;
    try {
      const lookup = cachingLookup();
      const [error, address] = await one(lookup, 'localhost');
      expect(error).toBeNull();
      expect(address).toMatch(/^(127\.0\.0\.1|::1)$/);
      await one(lookup, 'localhost');
      expect(asked).toEqual(['localhost']);
    } finally {
      dns.lookup = real;
    }
  });
});
