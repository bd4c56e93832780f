// The mesh path: an Envoy beside the client and one beside the servers, as a service mesh runs them.
// The caller's connections to the servers' ports are redirected (iptables REDIRECT in the client
// namespace, as Istio's init container does) to its local Envoy over loopback, in plaintext; that Envoy
// sends each call over a pool of mTLS connections to the servers' Envoy, which hands it to the app.
// The Envoys themselves run as envoy-process.ts's EnvoyProcess.
import type { CertificateSet } from '../../security';

/** One service the mesh carries: what the caller dials, and the ports each Envoy uses for it. */
export interface MeshRoute {
  name: 'server-a' | 'server-b' | 'server-a-h2';
  /** The app's port in the server namespace (what the caller dials; redirected on the client side). */
  appPort: number;
  protocol: 'http1' | 'http2';
  /** The client Envoy's loopback listener the caller is redirected to. */
  outboundPort: number;
  /** The servers' Envoy's mTLS listener. */
  inboundPort: number;
}

/** Worker threads per Envoy: Istio's default proxy concurrency. */
export const ENVOY_CONCURRENCY = 2;

/** The servers' ports a mesh carries: server-a's HTTP/1.1, server-b's gRPC, and server-a's h2c when it has one (bench:all's json-h2). */
export interface MeshPorts {
  serverA: number;
  serverB: number;
  serverAH2?: number;
}

/** Listener ports of one set's sidecars: a block of MESH_PORT_STRIDE per slot, so sets up at once never share. */
export const MESH_PORT_STRIDE = 10;

export function meshRoutes(ports: MeshPorts, slot = 0): MeshRoute[] {
  const at = (base: number, i: number) => base + slot * MESH_PORT_STRIDE + i;
  const routes: MeshRoute[] = [
    { name: 'server-a', appPort: ports.serverA, protocol: 'http1', outboundPort: at(15001, 0), inboundPort: at(15443, 0) },
    { name: 'server-b', appPort: ports.serverB, protocol: 'http2', outboundPort: at(15001, 1), inboundPort: at(15443, 1) },
  ];
  if (ports.serverAH2 !== undefined) routes.push({ name: 'server-a-h2', appPort: ports.serverAH2, protocol: 'http2', outboundPort: at(15001, 2), inboundPort: at(15443, 2) });
  return routes;
}

/**
 * Envoy's HTTP/2 flow control as these configs leave it (Envoy's defaults: http2_protocol_options sets
 * no window): what each Envoy advertises on its HTTP/2 connections, the caller's and the one between
 * the sidecars, and the buffer per connection past which it stops reading (Envoy's flow-control docs).
 */
export const ENVOY_HTTP2_WINDOWS = Object.freeze({ initialStreamWindowSize: 268_435_456, initialConnectionWindowSize: 268_435_456, perConnectionBufferLimitBytes: 1_048_576, source: "Envoy's defaults (not set in the configs)" });

const socketAddress = (address: string, port: number) => ({ socket_address: { address, port_value: port } });

/** Plain HTTP/1.1 or HTTP/2 towards an upstream (Envoy keeps these connections and pools them). */
function upstreamProtocol(protocol: MeshRoute['protocol']) {
  return {
    'envoy.extensions.upstreams.http.v3.HttpProtocolOptions': {
      '@type': 'type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions',
      explicit_http_config: protocol === 'http2' ? { http2_protocol_options: {} } : { http_protocol_options: {} },
    },
  };
}

function connectionManager(prefix: string, cluster: string, codec: 'AUTO' | 'HTTP1' | 'HTTP2') {
  return {
    name: 'envoy.filters.network.http_connection_manager',
    typed_config: {
      '@type': 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
      stat_prefix: prefix,
      codec_type: codec,
      // The bench's large replies (a million rows) take seconds: no route timeout, as for the apps' own calls.
      route_config: { virtual_hosts: [{ name: cluster, domains: ['*'], routes: [{ match: { prefix: '/' }, route: { cluster, timeout: '0s' } }] }] },
      http_filters: [{ name: 'envoy.filters.http.router', typed_config: { '@type': 'type.googleapis.com/envoy.extensions.filters.http.router.v3.Router' } }],
    },
  };
}

function tlsContext(kind: 'upstream' | 'downstream', certs: CertificateSet, route: MeshRoute) {
  const pair = kind === 'upstream' ? certs.client : certs.server;
  const common = {
    tls_certificates: [{ certificate_chain: { filename: pair.cert }, private_key: { filename: pair.key } }],
    validation_context: { trusted_ca: { filename: certs.ca } },
    alpn_protocols: [route.protocol === 'http2' ? 'h2' : 'http/1.1'],
  };
  if (kind === 'upstream') {
    return {
      name: 'envoy.transport_sockets.tls',
      typed_config: { '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext', common_tls_context: common, sni: certs.identity.names[0] },
    };
  }
  return {
    name: 'envoy.transport_sockets.tls',
    typed_config: { '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext', common_tls_context: common, require_client_certificate: true },
  };
}

/**
 * Istio's thresholds (the largest 32-bit value: no circuit breaking unless a DestinationRule asks), not
 * Envoy's 1,024 connections, pending and concurrent requests per cluster, which ②-3's 1,000 calls at
 * once would brush against: the mesh would refuse calls rather than carry them.
 */
const NO_CIRCUIT_BREAKING = { thresholds: [{ max_connections: 4294967295, max_pending_requests: 4294967295, max_requests: 4294967295, max_retries: 4294967295 }] };

function cluster(name: string, address: string, port: number, route: MeshRoute, tls?: object) {
  return {
    name,
    type: 'STATIC',
    connect_timeout: '10s',
    circuit_breakers: NO_CIRCUIT_BREAKING,
    load_assignment: { cluster_name: name, endpoints: [{ lb_endpoints: [{ endpoint: { address: socketAddress(address, port) } }] }] },
    typed_extension_protocol_options: upstreamProtocol(route.protocol),
    ...(tls ? { transport_socket: tls } : {}),
  };
}

const admin = (adminSocket: string) => ({ address: { pipe: { path: adminSocket } } });

/** The client's sidecar: a plaintext loopback listener per service, mTLS to the servers' sidecar. */
export function clientEnvoyConfig(routes: readonly MeshRoute[], serverAddress: string, certs: CertificateSet, adminSocket: string): object {
  return {
    admin: admin(adminSocket),
    static_resources: {
      listeners: routes.map((r) => ({
        name: `outbound-${r.name}`,
        address: socketAddress('127.0.0.1', r.outboundPort),
        filter_chains: [{ filters: [connectionManager(`outbound_${r.name.replace('-', '_')}`, `outbound-${r.name}`, 'AUTO')] }],
      })),
      clusters: routes.map((r) => cluster(`outbound-${r.name}`, serverAddress, r.inboundPort, r, tlsContext('upstream', certs, r))),
    },
  };
}

/** The servers' sidecar: an mTLS listener per service (client certificate required), plaintext to the app. */
export function serverEnvoyConfig(routes: readonly MeshRoute[], serverAddress: string, certs: CertificateSet, adminSocket: string): object {
  return {
    admin: admin(adminSocket),
    static_resources: {
      listeners: routes.map((r) => ({
        name: `inbound-${r.name}`,
        address: socketAddress(serverAddress, r.inboundPort),
        filter_chains: [{ filters: [connectionManager(`inbound_${r.name.replace('-', '_')}`, `inbound-${r.name}`, r.protocol === 'http2' ? 'HTTP2' : 'HTTP1')], transport_socket: tlsContext('downstream', certs, r) }],
      })),
      clusters: routes.map((r) => cluster(`inbound-${r.name}`, serverAddress, r.appPort, r)),
    },
  };
}

/** iptables rules in the client namespace sending the caller's connections to its Envoy (Istio's capture). */
export function captureRules(routes: readonly MeshRoute[], serverAddress: string): string[][] {
  return routes.map((r) => ['iptables', '-w', '-t', 'nat', '-A', 'OUTPUT', '-p', 'tcp', '-d', serverAddress, '--dport', String(r.appPort), '-j', 'REDIRECT', '--to-ports', String(r.outboundPort)]);
}
