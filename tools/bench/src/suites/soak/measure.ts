// bench:soak's measurement: closed-loop load on server-a (keep-alive HTTP/1.1 + JSON) and server-b
// (one gRPC channel) at once, a warm-up first, each server's RSS after the warm-up and at the end.
import type { SuiteServers } from '../common/servers';
import { judgeSoak, summarizeLoad, type LoadSummary, type SoakVerdict } from './judge';
import { runLoad } from '../common/closed-loop';
import { LoadTargets } from '../common/load-targets';

export interface SoakSettings extends Record<string, number> {
  durationS: number;
  warmupS: number;
  httpConcurrency: number;
  grpcConcurrency: number;
  rows: number;
}

export interface SoakResults {
  loads: LoadSummary[];
  rssWarm: Record<string, number>;
  rssEnd: Record<string, number>;
  verdict: SoakVerdict;
}

export async function measureSoak(servers: SuiteServers, settings: SoakSettings, log: (line: string) => void): Promise<SoakResults> {
  const targets = new LoadTargets(servers.serverAUrl, servers.serverBAddress, settings.httpConcurrency);
  try {
    const phase = (seconds: number) =>
      Promise.all([
        runLoad(settings.httpConcurrency, seconds * 1000, () => targets.httpCall(settings.rows)),
        runLoad(settings.grpcConcurrency, seconds * 1000, () => targets.grpcCall(settings.rows)),
      ]);
    const rss = async () => ({ 'server-a': (await targets.serverAMetrics()).rssBytes, 'server-b': (await targets.serverBMetrics()).rssBytes });
    log(`warm-up ${settings.warmupS} s …`);
    await phase(settings.warmupS);
    const rssWarm = await rss();
    log(`${settings.durationS} s at ${settings.httpConcurrency} HTTP connections and ${settings.grpcConcurrency} gRPC calls …`);
    const [httpLoad, grpcLoad] = await phase(settings.durationS);
    const rssEnd = await rss();
    const loads = [
      summarizeLoad('server-a (HTTP/1.1 + JSON)', settings.httpConcurrency, httpLoad),
      summarizeLoad('server-b (gRPC)', settings.grpcConcurrency, grpcLoad),
    ];
    return { loads, rssWarm, rssEnd, verdict: judgeSoak(loads, rssWarm, rssEnd, settings.durationS) };
  } finally {
    targets.close();
  }
}

/** Why the soak failed its verdict, or null: errors, or a server's RSS grown past the limit. */
export function soakFailure(results: SoakResults): string | null {
  const why = [
    results.verdict.errorsOk ? '' : `${results.loads.reduce((n, l) => n + l.errors, 0)} call(s) failed`,
    results.verdict.rssOk ? '' : 'RSS grew past the limit',
  ].filter(Boolean);
  return why.length ? why.join('; ') : null;
}
