// Calibration of a path, as the stage's calibration checks its RTT: from the client namespace, time
// what the path adds and compare it with what the path's features predict, so results are never
// attributed to a path that is not the one named (a resolver that caches, a sidecar that reconnects).
import { allowedRttErrorMs } from './calibration';
import { lookupCost, SERVICE_NAMES, serviceFqdn } from './cluster-dns';
import { round, summarize } from './figures';
import type { ActivePath } from './path';
import { runToEnd } from './spawn-ready';
import type { Stage } from './stage';

/** A sidecar hop is not free: each Envoy's own time is allowed on top of the RTT's tolerance. */
export const SIDECAR_ALLOWANCE_MS = 1;
const SAMPLES = 9;

export interface PathCheck {
  verdict: 'ok' | 'refuse';
  reasons: string[];
  /** Name lookups (getaddrinfo) timed from the client namespace; null without names. */
  lookup: { expectedMs: number; roundTrips: number; medianMs: number; samples: number[] } | null;
  /** A request on a new connection through the sidecars (whose pooled upstream costs no handshake); null without a mesh. */
  meshRequest: { expectedMs: number; medianMs: number; samples: number[] } | null;
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
 * warm, takes one round trip (the caller's handshake stays on loopback). Off by more than the stage's
 * RTT tolerance (plus SIDECAR_ALLOWANCE_MS through the mesh): refuse.
 */
export async function checkPath(stage: Stage, path: ActivePath, rttMs: number): Promise<PathCheck> {
  const names = path.profile.features.includes('names');
  const mesh = path.profile.features.includes('mesh');
  if (!names && !mesh) return { verdict: 'ok', reasons: [], lookup: null, meshRequest: null };
  // The mesh probe dials the server by address, so its time is the sidecars' alone.
  const url = `http://${stage.hosts.server}:${new URL(path.serverAUrl).port}/`;
  const out = JSON.parse(await runToEnd(stage.wrap('client', [process.execPath, '-e', probeScript(names, mesh, SERVICE_NAMES.serverA, url)]), 60_000 + 20 * SAMPLES * rttMs)) as { lookup: number[]; mesh: number[] };
  const reasons: string[] = [];
  const judge = (what: string, medianMs: number, expectedMs: number, allowanceMs: number) => {
    const allowed = allowedRttErrorMs(expectedMs) + allowanceMs;
    if (Math.abs(medianMs - expectedMs) > allowed) reasons.push(`${what} took ${round(medianMs)} ms (median), not ${round(expectedMs)} ± ${round(allowed)} ms`);
  };
  let lookup: PathCheck['lookup'] = null;
  if (names) {
    const roundTrips = lookupCost(SERVICE_NAMES.serverA, serviceFqdn(SERVICE_NAMES.serverA)).roundTrips;
    lookup = { expectedMs: round(roundTrips * rttMs), roundTrips, medianMs: round(summarize(out.lookup).median), samples: out.lookup.map((x) => round(x)) };
    judge(`a lookup of ${SERVICE_NAMES.serverA} (${roundTrips} round trips)`, lookup.medianMs, lookup.expectedMs, 0);
  }
  let meshRequest: PathCheck['meshRequest'] = null;
  if (mesh) {
    meshRequest = { expectedMs: round(rttMs), medianMs: round(summarize(out.mesh).median), samples: out.mesh.map((x) => round(x)) };
    judge('a request on a new connection through the sidecars (1 round trip)', meshRequest.medianMs, meshRequest.expectedMs, 2 * SIDECAR_ALLOWANCE_MS);
  }
  return { verdict: reasons.length ? 'refuse' : 'ok', reasons, lookup, meshRequest };
}
