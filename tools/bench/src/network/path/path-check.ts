// Calibration of a path, as the stage's calibration checks its RTT: from the client namespace, time
// what the path adds and compare it with what the path's features predict, so results are never
// attributed to a path that is not the one named (a resolver that caches, a sidecar that reconnects).
import { allowedRttErrorMs, round, runToEnd, summarize, type Stage } from '../stage';
import { lookupCost, SERVICE_NAMES, serviceFqdn } from './cluster-dns';
import type { ActivePath } from './path';
import { ENVOY_CONCURRENCY } from './sidecars';

/**
 * The sidecars' own time is measured (meshRequest.sidecarsMs), not assumed; what the check refuses is a
 * mesh request that paid for more than the sidecars: a handshake per call or a stalled proxy. A handshake
 * per call is caught where it shows for certain, in the client Envoy's own count of the connections it
 * opened to the server's; the time bound is then one round trip above the expected one (a TCP + TLS 1.3
 * handshake adds two), never less than this: Envoy's own time on a loaded 2-core machine reached 10.7 ms
 * once in CI, so a tighter bound refused a sound path.
 */
export const SIDECAR_BOUND_MS = 15;
const SAMPLES = 9;

export interface PathCheck {
  verdict: 'ok' | 'refuse';
  reasons: string[];
  /** Name lookups (getaddrinfo) timed from the client namespace; null without names. */
  lookup: { expectedMs: number; roundTrips: number; medianMs: number; samples: number[] } | null;
  /** A request on a new connection through the sidecars (whose pooled upstream costs no handshake); null without a mesh. */
  meshRequest: { expectedMs: number; medianMs: number; samples: number[]; sidecarsMs: number; boundMs: number; upstreamConnections: number; maxUpstreamConnections: number } | null;
}

/** Times `samples` lookups and new-connection requests from the client namespace (one warm-up each). */
function probeScript(names: boolean, mesh: boolean, host: string, url: string): string {
  return `
    const dns = require('dns'), http = require('http');
    const time = async (f) => { const t = performance.now(); await f(); return performance.now() - t; };
    const lookup = () => new Promise((ok, ko) => dns.lookup(${JSON.stringify(host)}, (e) => (e ? ko(e) : ok())));
    const get = () => new Promise((ok, ko) => http.get(${JSON.stringify(url)}, { agent: false }, (r) => { r.resume(); r.on('end', ok); }).on('error', ko));
    (async () => {
      const out = { lookup: [], mesh: [] };
      if (${names}) { await lookup(); for (let i = 0; i < ${SAMPLES}; i++) out.lookup.push(await time(lookup)); }
      if (${mesh}) { await get(); for (let i = 0; i < ${SAMPLES}; i++) out.mesh.push(await time(get)); }
      console.log(JSON.stringify(out));
    })().catch((e) => { console.error(e.message); process.exit(1); });`;
}

/**
 * Checks the path against what it should cost at `rttMs` (the stage's calibrated RTT): a lookup takes
 * the round trips of the search domains it tries; a mesh request by IP, once the sidecars' pool is
 * warm, takes one round trip (the caller's handshake stays on loopback) plus the sidecars' own time. A
 * lookup off by more than the stage's RTT tolerance, a mesh request faster than one round trip or
 * slower by more than SIDECAR_BOUND_MS / one RTT, or a client Envoy that opened more connections to the
 * server's than it has workers (each worker pools its own): refuse.
 */
export async function checkPath(stage: Stage, path: ActivePath, rttMs: number): Promise<PathCheck> {
  const names = path.profile.features.includes('names');
  const mesh = path.profile.features.includes('mesh');
  if (!names && !mesh) return { verdict: 'ok', reasons: [], lookup: null, meshRequest: null };
  // The mesh probe dials the server by address, so its time is the sidecars' alone.
  const url = `http://${stage.hosts.server}:${new URL(path.serverAUrl).port}/`;
  const before = mesh ? (await path.counters()).envoy : null;
  const out = JSON.parse(await runToEnd(stage.wrap('client', [process.execPath, '-e', probeScript(names, mesh, SERVICE_NAMES.serverA, url)]), 60_000 + 20 * SAMPLES * rttMs)) as { lookup: number[]; mesh: number[] };
  const reasons: string[] = [];
  const judge = (what: string, medianMs: number, expectedMs: number, aboveMs = allowedRttErrorMs(expectedMs)) => {
    const below = allowedRttErrorMs(expectedMs);
    if (medianMs < expectedMs - below || medianMs > expectedMs + aboveMs) reasons.push(`${what} took ${round(medianMs)} ms (median), not ${round(expectedMs)} (−${round(below)}, +${round(aboveMs)}) ms`);
  };
  let lookup: PathCheck['lookup'] = null;
  if (names) {
    const roundTrips = lookupCost(SERVICE_NAMES.serverA, serviceFqdn(SERVICE_NAMES.serverA)).roundTrips;
    lookup = { expectedMs: round(roundTrips * rttMs), roundTrips, medianMs: round(summarize(out.lookup).median), samples: out.lookup.map((x) => round(x)) };
    judge(`a lookup of ${SERVICE_NAMES.serverA} (${roundTrips} round trips)`, lookup.medianMs, lookup.expectedMs);
  }
  let meshRequest: PathCheck['meshRequest'] = null;
  if (mesh) {
    const medianMs = round(summarize(out.mesh).median);
    const boundMs = Math.max(SIDECAR_BOUND_MS, rttMs);
    const after = (await path.counters()).envoy;
    const upstreamConnections = after && before ? after.client.upstreamConnections - before.client.upstreamConnections : 0;
    meshRequest = { expectedMs: round(rttMs), medianMs, samples: out.mesh.map((x) => round(x)), sidecarsMs: round(medianMs - rttMs), boundMs: round(boundMs), upstreamConnections, maxUpstreamConnections: ENVOY_CONCURRENCY };
    judge('a request on a new connection through the sidecars (1 round trip + their own time)', medianMs, meshRequest.expectedMs, boundMs);
    if (upstreamConnections > ENVOY_CONCURRENCY) reasons.push(`the client Envoy opened ${upstreamConnections} connections to the server's for ${SAMPLES + 1} requests, not at most ${ENVOY_CONCURRENCY} (one pool per worker): its upstream connections are not pooled`);
  }
  return { verdict: reasons.length ? 'refuse' : 'ok', reasons, lookup, meshRequest };
}
