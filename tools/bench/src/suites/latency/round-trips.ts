// How many round trips one call of a transport should take on a path, before anything is measured:
// the migration's explanation (a lookup and a handshake per request) turned into a prediction that the
// measured mean is checked against.
import { lookupCost, SERVICE_NAMES, serviceFqdn, type PathFeatureId } from '../../network/path';
import type { LatencyTransportRecord } from './transports';

export interface RoundTrips {
  /** Name lookup per call: each search domain tried until one answers (A and AAAA together). */
  lookup: number;
  /** TCP handshake per call across the network (with a sidecar the caller's handshake stays on loopback and the sidecars pool theirs). */
  tcp: number;
  /** Under --security tls|mtls: TLS 1.3's full handshake per new connection (one round trip; absent in cleartext and in runs before the suites took TLS). */
  tls?: number;
  /** The request and its reply. */
  request: number;
  total: number;
}

export function predictRoundTrips(transport: LatencyTransportRecord, features: readonly PathFeatureId[], secure = false): RoundTrips {
  const perCall = transport.newConnectionPerCall;
  const lookup = perCall && !transport.lookupCached && features.includes('names') ? lookupCost(SERVICE_NAMES.serverA, serviceFqdn(SERVICE_NAMES.serverA)).roundTrips : 0;
  const tcp = perCall && !features.includes('mesh') ? 1 : 0;
  if (!secure) return { lookup, tcp, request: 1, total: lookup + tcp + 1 };
  // A new connection's handshake crosses the network (a mesh path runs plain: checkSuiteArgs).
  const tls = perCall ? 1 : 0;
  return { lookup, tcp, tls, request: 1, total: lookup + tcp + tls + 1 };
}
