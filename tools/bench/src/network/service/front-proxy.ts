// The l7-proxy strategy's balancer: one Envoy in the server namespace — the gateway in front of the
// replica LAN — balancing each HTTP/1.1 request and each gRPC call (HTTP/2 stream) round robin over
// the replicas. Its endpoints come from a file it watches (EDS from the filesystem), so a replica
// joining or leaving changes them without a restart, as a control plane would.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CertificateSet } from '../../security';
import { adminGet, EnvoyProcess } from '../path';
import { inNs, type Topology } from '../stage';
import type { RecoveryTuning } from './recovery';

/**
 * Under --security tls|mtls: TLS from the client to Envoy (its server certificate from the run's CA)
 * and from Envoy to the replicas (verified against the run's CA and the name they are known by); under
 * mtls Envoy requires the client's certificate and presents one to the replicas.
 */
export interface FrontProxyTls {
  certificates: CertificateSet;
  clientCertificates: boolean;
  /** The name the replicas' certificate must carry (SNI and the SAN Envoy checks upstream). */
  replicaName: string;
}

export interface ProxyRoute {
  /** The cluster's name (server-a, server-b). */
  name: string;
  /** Where Envoy listens (on the server namespace's address) and where each replica serves. */
  listenPort: number;
  replicaPort: number;
  protocol: 'http1' | 'http2';
}

const ROUTER = { name: 'envoy.filters.http.router', typed_config: { '@type': 'type.googleapis.com/envoy.extensions.filters.http.router.v3.Router' } };

/** The endpoints of one cluster, as the EDS file Envoy watches holds them. */
export function endpointsDocument(route: ProxyRoute, addresses: readonly string[]): object {
  return {
    version_info: String(Date.now()),
    resources: [
      {
        '@type': 'type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment',
        cluster_name: route.name,
        endpoints: [{ lb_endpoints: addresses.map((address) => ({ endpoint: { address: { socket_address: { address, port_value: route.replicaPort } } } })) }],
      },
    ],
  };
}

const TLS_SOCKET = 'envoy.transport_sockets.tls';
const TLS_CONTEXTS = 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.';
/** TLS 1.3 only, as the apps (libs/config TLS_MIN_VERSION); both bounds, since an upstream context's maximum is TLS 1.2 by default. */
const TLS_1_3 = { tls_minimum_protocol_version: 'TLSv1_3', tls_maximum_protocol_version: 'TLSv1_3' };

/** The listener's side (downstream): Envoy's server certificate; the client's verified under mtls. */
function downstreamTls(tls: FrontProxyTls, route: ProxyRoute): object {
  const { certificates: c } = tls;
  const common = {
    tls_certificates: [{ certificate_chain: { filename: c.server.cert }, private_key: { filename: c.server.key } }],
    ...(tls.clientCertificates ? { validation_context: { trusted_ca: { filename: c.ca } } } : {}),
    tls_params: TLS_1_3,
    alpn_protocols: [route.protocol === 'http2' ? 'h2' : 'http/1.1'],
  };
  return { name: TLS_SOCKET, typed_config: { '@type': `${TLS_CONTEXTS}DownstreamTlsContext`, common_tls_context: common, require_client_certificate: tls.clientCertificates } };
}

/** The cluster's side (upstream): the replicas verified against the run's CA and their name; the client certificate presented under mtls. */
function upstreamTls(tls: FrontProxyTls, route: ProxyRoute): object {
  const { certificates: c } = tls;
  const common = {
    ...(tls.clientCertificates ? { tls_certificates: [{ certificate_chain: { filename: c.client.cert }, private_key: { filename: c.client.key } }] } : {}),
    validation_context: { trusted_ca: { filename: c.ca }, match_typed_subject_alt_names: [{ san_type: 'DNS', matcher: { exact: tls.replicaName } }] },
    tls_params: TLS_1_3,
    alpn_protocols: [route.protocol === 'http2' ? 'h2' : 'http/1.1'],
  };
  return { name: TLS_SOCKET, typed_config: { '@type': `${TLS_CONTEXTS}UpstreamTlsContext`, common_tls_context: common, sni: tls.replicaName } };
}

/** What the recovery tunings add to a route's cluster and to its route (outlier detection, health checks, retries; recovery.ts). */
function recoveryOf(tunings: readonly RecoveryTuning[], route: ProxyRoute): { cluster: Record<string, unknown>; route: Record<string, unknown> } {
  return {
    cluster: Object.assign({}, ...tunings.map((t) => t.settings.envoyCluster?.(route) ?? {})),
    route: Object.assign({}, ...tunings.map((t) => t.settings.envoyRoute?.(route) ?? {})),
  };
}

/**
 * Envoy's bootstrap: a listener per route on `listenAddress`, a round-robin cluster per route fed from
 * its EDS file; TLS on both sides under `tls`; with `recovery`, the tunings' cluster and route settings.
 */
export function frontProxyConfig(routes: readonly ProxyRoute[], listenAddress: string, adminSocket: string, edsFile: (route: ProxyRoute) => string, tls: FrontProxyTls | null = null, recovery: readonly RecoveryTuning[] = []): object {
  return {
    // EDS from a file still names the node it configures (Envoy requires an id and cluster for any xDS).
    node: { id: 'front-proxy', cluster: 'bench-service' },
    admin: { address: { pipe: { path: adminSocket } } },
    static_resources: {
      listeners: routes.map((route) => ({
        name: `${route.name}-in`,
        address: { socket_address: { address: listenAddress, port_value: route.listenPort } },
        filter_chains: [
          {
            filters: [
              {
                name: 'envoy.filters.network.http_connection_manager',
                typed_config: {
                  '@type': 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
                  stat_prefix: route.name,
                  codec_type: route.protocol === 'http2' ? 'HTTP2' : 'HTTP1',
                  route_config: { virtual_hosts: [{ name: route.name, domains: ['*'], routes: [{ match: { prefix: '/' }, route: { cluster: route.name, timeout: '0s', ...recoveryOf(recovery, route).route } }] }] },
                  http_filters: [ROUTER],
                },
              },
            ],
            ...(tls ? { transport_socket: downstreamTls(tls, route) } : {}),
          },
        ],
      })),
      clusters: routes.map((route) => ({
        name: route.name,
        type: 'EDS',
        connect_timeout: '5s',
        lb_policy: 'ROUND_ROBIN',
        eds_cluster_config: { eds_config: { resource_api_version: 'V3', path_config_source: { path: edsFile(route) } } },
        typed_extension_protocol_options: {
          'envoy.extensions.upstreams.http.v3.HttpProtocolOptions': {
            '@type': 'type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions',
            explicit_http_config: route.protocol === 'http2' ? { http2_protocol_options: {} } : { http_protocol_options: {} },
          },
        },
        ...(tls ? { transport_socket: upstreamTls(tls, route) } : {}),
        ...recoveryOf(recovery, route).cluster,
      })),
    },
  };
}

/** A running front proxy: its endpoints, its CPU, its stop (an EnvoyProcess with one worker). */
export class FrontProxy {
  private constructor(
    private readonly envoy: EnvoyProcess,
    private readonly routes: readonly ProxyRoute[],
    private readonly dir: string,
  ) {}

  /** Writes the config and the endpoint files into `dir`, starts Envoy in the server namespace, waits until /ready. */
  static async start(t: Topology, binary: string, routes: readonly ProxyRoute[], addresses: readonly string[], dir: string, tls: FrontProxyTls | null = null, recovery: readonly RecoveryTuning[] = []): Promise<FrontProxy> {
    fs.mkdirSync(dir, { recursive: true });
    const adminSocket = path.join(dir, 'envoy-admin.sock');
    const eds = (route: ProxyRoute) => path.join(dir, `eds-${route.name}.json`);
    for (const route of routes) fs.writeFileSync(eds(route), JSON.stringify(endpointsDocument(route, addresses)));
    const config = frontProxyConfig(routes, t.addresses.server, adminSocket, eds, tls, recovery);
    const envoy = await EnvoyProcess.start('front', binary, config, dir, (argv) => inNs(t.namespaces.server, argv), 1);
    return new FrontProxy(envoy, routes, dir);
  }

  get pid(): number {
    return this.envoy.pid;
  }

  /** New endpoints: each file is replaced by a rename, which Envoy's watch picks up without a restart. */
  setEndpoints(addresses: readonly string[]): void {
    for (const route of this.routes) {
      const file = path.join(this.dir, `eds-${route.name}.json`);
      fs.writeFileSync(`${file}.new`, JSON.stringify(endpointsDocument(route, addresses)));
      fs.renameSync(`${file}.new`, file);
    }
  }

  /** Envoy's CPU so far (its threads' schedstat). */
  cpuMs(): number {
    return this.envoy.cpuMs();
  }

  /** Requests each endpoint got, from Envoy's own /clusters counters (`rq_total` per host). */
  async requestsPerHost(): Promise<Record<string, number>> {
    const { body } = await adminGet(this.envoy.adminSocket, '/clusters');
    const counts: Record<string, number> = {};
    for (const m of body.matchAll(/^([\w-]+)::([\d.]+):\d+::rq_total::(\d+)$/gm)) counts[`${m[1]}/${m[2]}`] = Number(m[3]);
    return counts;
  }

  stop(): Promise<void> {
    return this.envoy.stop();
  }
}
