// The two load generators, one shape: run `concurrency` calls in flight for `durationMs` and report
// every latency (HDR histogram), completed calls and errors by kind.
import type { ConnectionOptions } from 'node:tls';
import autocannon from 'autocannon';
import type { Histogram } from 'hdr-histogram-js';
import { recordMs } from '../common/hdr';
import { runLoad } from '../common/closed-loop';
import type { LoadTargets } from '../common/load-targets';

export interface GeneratorRun {
  calls: number;
  elapsedMs: number;
  /** Replies other than 2xx, or gRPC statuses other than OK (timeouts apart). */
  errors: number;
  timeouts: number;
  errorKinds: Record<string, number>;
}

/**
 * autocannon as a library, in this process: `concurrency` connections, one request in flight on each.
 * Under TLS (an https url, `tls` its CA and client certificate) autocannon does not verify the server
 * itself: the cell's metrics read just before, over LoadTargets' verifying agent, is what refuses a wrong one.
 */
export async function autocannonLoad(url: string, concurrency: number, durationMs: number, histogram: Histogram, timeoutS: number, tls: ConnectionOptions | null = null): Promise<GeneratorRun> {
  const started = performance.now();
  const instance = autocannon({ url, connections: concurrency, pipelining: 1, duration: durationMs / 1000, timeout: timeoutS, ...(tls ? { tlsOptions: tls } : {}) });
  // Every response's time, into our histogram: the same resolution as the gRPC side.
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTimeMs: number) => recordMs(histogram, responseTimeMs));
  const result = await instance;
  const errorKinds: Record<string, number> = {};
  if (result.non2xx > 0) errorKinds['non-2xx'] = result.non2xx;
  if (result.errors - result.timeouts > 0) errorKinds['connection errors'] = result.errors - result.timeouts;
  if (result.timeouts > 0) errorKinds.timeouts = result.timeouts;
  return {
    calls: result.requests.total,
    elapsedMs: performance.now() - started,
    errors: result.non2xx + result.errors - result.timeouts,
    timeouts: result.timeouts,
    errorKinds,
  };
}

/** Our closed loop on one grpc-js channel (soak/load.ts), every latency recorded. */
export function grpcLoad(targets: LoadTargets, rows: number, concurrency: number, durationMs: number, histogram: Histogram): Promise<GeneratorRun> {
  return closedLoad(() => targets.grpcCall(rows), concurrency, durationMs, histogram);
}

/**
 * Our closed loop of `call`s (one gRPC call, one ClientProxy.send()), every latency recorded; a reply
 * that does not come by its deadline is a timeout (gRPC's DEADLINE_EXCEEDED, the Nest transports' own).
 */
export async function closedLoad(call: () => Promise<unknown>, concurrency: number, durationMs: number, histogram: Histogram): Promise<GeneratorRun> {
  const run = await runLoad(concurrency, durationMs, () => call().then(() => undefined));
  for (const latency of run.latenciesMs) recordMs(histogram, latency);
  const timeouts = Object.entries(run.errorKinds)
    .filter(([kind]) => kind.includes('DEADLINE_EXCEEDED'))
    .reduce((n, [, k]) => n + k, 0);
  return { calls: run.calls, elapsedMs: run.elapsedMs, errors: run.errors - timeouts, timeouts, errorKinds: run.errorKinds };
}
