import type { NetworkProfile } from './profile';
import { STAGE_LIMITS } from './limits';

/**
 * Every namespace the stage creates starts with this prefix, and nothing else on the machine should:
 * cleanupLeftovers removes whatever carries it.
 */
export const NAMESPACE_PREFIX = 'nbx-';

/** The hosts an app can run on: the client namespace or the server namespace (server-a and server-b). */
export type StageHost = 'client' | 'server';

/** Names and addresses of one stage: client — router — server, joined by two veth pairs. */
export interface Topology {
  runId: string;
  namespaces: { client: string; router: string; server: string };
  /** Interface names, each inside its namespace (names only need to be unique per namespace). */
  interfaces: { client: string; routerToClient: string; routerToServer: string; server: string };
  /**
   * Addresses from 198.18.0.0/15, the range RFC 2544 reserves for benchmarking, so they can never
   * clash with a real network the host is on. One /24 per link.
   */
  addresses: { client: string; routerClientSide: string; routerServerSide: string; server: string };
  prefixLength: number;
  mtu: number;
}

/** A run id as it may appear in a namespace name: lower-case letters, digits and dashes, ≤ 24. */
export function sanitizeRunId(raw: string): string {
  const id = raw
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24)
    .replace(/-+$/, '');
  if (!id) throw new Error(`run id ${JSON.stringify(raw)} has no letter or digit to name namespaces with`);
  return id;
}

export function topologyFor(runId: string): Topology {
  const id = sanitizeRunId(runId);
  return {
    runId: id,
    namespaces: { client: `${NAMESPACE_PREFIX}${id}-client`, router: `${NAMESPACE_PREFIX}${id}-router`, server: `${NAMESPACE_PREFIX}${id}-server` },
    interfaces: { client: 'veth-c', routerToClient: 'veth-rc', routerToServer: 'veth-rs', server: 'veth-s' },
    addresses: { client: '198.18.1.2', routerClientSide: '198.18.1.1', routerServerSide: '198.18.2.1', server: '198.18.2.2' },
    prefixLength: 24,
    mtu: 1500,
  };
}

export function isStageNamespace(name: string): boolean {
  return name.startsWith(NAMESPACE_PREFIX);
}

/** TCP settings pinned in every namespace of a stage, recorded with the results. */
export interface TcpSettings {
  congestionControl: string;
  /** min, default, max in bytes, as in net.ipv4.tcp_rmem. */
  rmem: [number, number, number];
  wmem: [number, number, number];
}

/**
 * Picks the congestion control from what the host allows (net.ipv4.tcp_allowed_congestion_control is
 * host-wide; a namespace can only choose from it, and we never widen it). The host's own default
 * first, so a stage behaves like the host's connections would; then bbr (no loss-based collapse on
 * lossy profiles); then whatever is listed first.
 */
export function chooseCongestionControl(allowed: readonly string[], hostDefault: string | null): string {
  if (allowed.length === 0) throw new Error('the host allows no TCP congestion control (net.ipv4.tcp_allowed_congestion_control is empty)');
  if (hostDefault && allowed.includes(hostDefault)) return hostDefault;
  return allowed.includes('bbr') ? 'bbr' : allowed[0];
}

export function tcpSettingsFor(congestionControl: string): TcpSettings {
  const max = STAGE_LIMITS.tcpBufferMaxBytes;
  // Kernel defaults for min and initial size; only the maxima are raised, so long-RTT profiles can
  // fill their bandwidth-delay product (validated per profile against this maximum).
  return { congestionControl, rmem: [4096, 131072, max], wmem: [4096, 16384, max] };
}

/**
 * Offloads are turned off on every veth of a lossy profile: with GSO/TSO/GRO on, one "packet" in the
 * router can be a 64 KB super-packet, and the statistic match would drop 40 segments at once. Without
 * loss they stay on: the delayer then handles far fewer packets (it caps throughput per packet).
 */
export function offloadsOff(profile: NetworkProfile): boolean {
  return profile.loss > 0;
}
