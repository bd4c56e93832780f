// The l7-proxy strategy's balancer: one Envoy in the server namespace — the gateway in front of the
// replica LAN — balancing each HTTP/1.1 request and each gRPC call (HTTP/2 stream) round robin over
// the replicas. Its endpoints come from a file it watches (EDS from the filesystem), so a replica
// joining or leaving changes them without a restart, as a control plane would.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { inNs } from './commands';
import type { Topology } from './topology';

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

/** Envoy's bootstrap: a listener per route on `listenAddress`, a round-robin cluster per route fed from its EDS file. */
export function frontProxyConfig(routes: readonly ProxyRoute[], listenAddress: string, adminSocket: string, edsFile: (route: ProxyRoute) => string): object {
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
                  route_config: { virtual_hosts: [{ name: route.name, domains: ['*'], routes: [{ match: { prefix: '/' }, route: { cluster: route.name, timeout: '0s' } }] }] },
                  http_filters: [ROUTER],
                },
              },
            ],
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
      })),
    },
  };
}

/** A running front proxy: its endpoints, its CPU, its stop. */
export class FrontProxy {
  private stderr = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly routes: readonly ProxyRoute[],
    private readonly dir: string,
    readonly adminSocket: string,
  ) {
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-4000)));
  }

  /** Writes the config and the endpoint files into `dir`, starts Envoy in the server namespace, waits until /ready. */
  static async start(t: Topology, binary: string, routes: readonly ProxyRoute[], addresses: readonly string[], dir: string): Promise<FrontProxy> {
    fs.mkdirSync(dir, { recursive: true });
    const adminSocket = path.join(dir, 'envoy-admin.sock');
    const eds = (route: ProxyRoute) => path.join(dir, `eds-${route.name}.json`);
    for (const route of routes) fs.writeFileSync(eds(route), JSON.stringify(endpointsDocument(route, addresses)));
    const configFile = path.join(dir, 'envoy-front.json');
    fs.writeFileSync(configFile, JSON.stringify(frontProxyConfig(routes, t.addresses.server, adminSocket, eds), null, 2));
    const argv = inNs(t.namespaces.server, [binary, '-c', configFile, '--concurrency', '1', '--disable-hot-restart', '--log-level', 'warn']);
    const proxy = new FrontProxy(spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] }), routes, dir, adminSocket);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (proxy.child.exitCode !== null) throw new Error(`Envoy exited (code ${proxy.child.exitCode}): ${proxy.stderr.trim().split('\n').slice(-5).join(' | ')}`);
      if ((await adminGet(adminSocket, '/ready').catch(() => null))?.status === 200) return proxy;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    proxy.child.kill('SIGKILL');
    throw new Error(`Envoy was not ready within 20 s: ${proxy.stderr.trim().split('\n').slice(-5).join(' | ')}`);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** New endpoints: each file is replaced by a rename, which Envoy's watch picks up without a restart. */
  setEndpoints(addresses: readonly string[]): void {
    for (const route of this.routes) {
      const file = path.join(this.dir, `eds-${route.name}.json`);
      fs.writeFileSync(`${file}.new`, JSON.stringify(endpointsDocument(route, addresses)));
      fs.renameSync(`${file}.new`, file);
    }
  }

  /** Envoy's CPU so far: the sum over its threads of /proc/<pid>/task/<tid>/schedstat's time on CPU (ns). */
  cpuMs(): number {
    let ns = 0;
    try {
      for (const tid of fs.readdirSync(`/proc/${this.pid}/task`)) {
        ns += Number(fs.readFileSync(`/proc/${this.pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      }
    } catch {
      // exited: what was read
    }
    return ns / 1e6;
  }

  /** Requests each endpoint got, from Envoy's own /clusters counters (`rq_total` per host). */
  async requestsPerHost(): Promise<Record<string, number>> {
    const { body } = await adminGet(this.adminSocket, '/clusters');
    const counts: Record<string, number> = {};
    for (const m of body.matchAll(/^([\w-]+)::([\d.]+):\d+::rq_total::(\d+)$/gm)) counts[`${m[1]}/${m[2]}`] = Number(m[3]);
    return counts;
  }

  stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const force = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      this.child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      this.child.kill('SIGTERM');
    });
  }
}

/** GET on Envoy's admin unix socket. */
function adminGet(socketPath: string, urlPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ socketPath, path: urlPath, timeout: 2000 }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

