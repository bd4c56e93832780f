// bench:soak's measurement: closed-loop load on server-a (keep-alive HTTP/1.1 + JSON) and server-b
// (one gRPC channel) at once, a warm-up first, each server's memory read every few seconds throughout.
import type { ProcessSample } from '@bench/config';
import type { SuiteServers } from '../common/servers';
import { judgeSoak, summarizeLoad, type LoadSummary, type MemorySample, type SoakVerdict } from './judge';
import { runLoad } from '../common/closed-loop';
import { LoadTargets } from '../common/load-targets';
import { unprofiled, type Profiled } from '../common/profiling';

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
  /** Each server's memory every MEMORY_SAMPLE_MS from the start of the warm-up (t < 0) to the end (absent in runs before 2026-11-28). */
  memory?: Record<string, MemorySample[]>;
  verdict: SoakVerdict;
}

/** How often each server's memory is read during the soak. */
export const MEMORY_SAMPLE_MS = 2000;

const memorySample = (t: number, m: ProcessSample): MemorySample => ({
  t: Math.round(t * 10) / 10,
  rssBytes: m.rssBytes,
  heapUsedBytes: m.heapUsedBytes ?? 0,
  heapTotalBytes: m.heapTotalBytes ?? 0,
  externalBytes: m.externalBytes ?? 0,
});

/** --cpu-profile's one unit: the measured stretch, both servers loaded at once. */
export const SOAK_UNIT = { case: 'soak', transport: 'json+grpc' };

export async function measureSoak(servers: SuiteServers, settings: SoakSettings, log: (line: string) => void, profiled: Profiled = unprofiled): Promise<SoakResults> {
  const targets = new LoadTargets(servers, settings.httpConcurrency);
  const memory: Record<string, MemorySample[]> = { 'server-a': [], 'server-b': [] };
  let measuredFrom = performance.now() + settings.warmupS * 1000;
  let sampling = true;
  let wake: () => void = () => undefined;
  const read = async () => {
    const [a, b] = await Promise.all([targets.serverAMetrics(), targets.serverBMetrics()]);
    const t = (performance.now() - measuredFrom) / 1000;
    memory['server-a'].push(memorySample(t, a));
    memory['server-b'].push(memorySample(t, b));
    return { 'server-a': a.rssBytes, 'server-b': b.rssBytes };
  };
  // One reading every MEMORY_SAMPLE_MS while the load runs (a reading is one call to each server's metrics).
  const sampler = (async () => {
    while (sampling) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, MEMORY_SAMPLE_MS).unref();
      });
      if (sampling) await read().catch(() => undefined);
    }
  })();
  try {
    const phase = (seconds: number) =>
      Promise.all([
        runLoad(settings.httpConcurrency, seconds * 1000, () => targets.httpCall(settings.rows)),
        runLoad(settings.grpcConcurrency, seconds * 1000, () => targets.grpcCall(settings.rows)),
      ]);
    log(`warm-up ${settings.warmupS} s …`);
    await phase(settings.warmupS);
    measuredFrom = performance.now();
    const rssWarm = await read();
    log(`${settings.durationS} s at ${settings.httpConcurrency} HTTP connections and ${settings.grpcConcurrency} gRPC calls …`);
    const [httpLoad, grpcLoad] = await profiled(SOAK_UNIT, () => phase(settings.durationS), ([http, grpc]) => http.calls + grpc.calls);
    sampling = false;
    wake();
    await sampler;
    const rssEnd = await read();
    const loads = [
      summarizeLoad('server-a (HTTP/1.1 + JSON)', settings.httpConcurrency, httpLoad),
      summarizeLoad('server-b (gRPC)', settings.grpcConcurrency, grpcLoad),
    ];
    return { loads, rssWarm, rssEnd, memory, verdict: judgeSoak(loads, memory, settings.durationS) };
  } finally {
    sampling = false;
    wake();
    targets.close();
  }
}

/** Why the soak failed its verdict, or null: errors, or a server retaining memory. */
export function soakFailure(results: SoakResults): string | null {
  const why = [
    results.verdict.errorsOk ? '' : `${results.loads.reduce((n, l) => n + l.errors, 0)} call(s) failed`,
    results.verdict.rssOk ? '' : 'memory retained: a server grew from the first half to the second',
  ].filter(Boolean);
  return why.length ? why.join('; ') : null;
}
