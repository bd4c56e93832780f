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
  /** The request and its reply. */
  request: number;
  total: number;
}

export function predictRoundTrips(transport: LatencyTransportRecord, features: readonly PathFeatureId[]): RoundTrips {
  const perCall = transport.newConnectionPerCall;
  const lookup = perCall && !transport.lookupCached && features.includes('names') ? lookupCost(SERVICE_NAMES.serverA, serviceFqdn(SERVICE_NAMES.serverA)).roundTrips : 0;
  const tcp = perCall && !features.includes('mesh') ? 1 : 0;
  return { lookup, tcp, request: 1, total: lookup + tcp + 1 };
}
