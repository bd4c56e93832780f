import { errorText } from '../../cli';
/** What a closed-loop load produced: every latency, and the errors by message. */
export interface LoadResult {
  calls: number;
  errors: number;
  /** Up to 5 distinct error messages with their counts. */
  errorKinds: Record<string, number>;
  latenciesMs: number[];
  elapsedMs: number;
}

/**
 * `concurrency` loops, each calling `call` again as soon as the previous call ends, until `durationMs`
 * has passed (closed loop: the load never exceeds `concurrency` calls in flight). Bounded in time.
 */
export async function runLoad(concurrency: number, durationMs: number, call: () => Promise<void>): Promise<LoadResult> {
  const result: LoadResult = { calls: 0, errors: 0, errorKinds: {}, latenciesMs: [], elapsedMs: 0 };
  const started = performance.now();
  const deadline = started + durationMs;
  const loop = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        await call();
        result.latenciesMs.push(performance.now() - t0);
      } catch (error) {
        result.errors += 1;
        const kind = errorText(error);
        if (kind in result.errorKinds || Object.keys(result.errorKinds).length < 5) result.errorKinds[kind] = (result.errorKinds[kind] ?? 0) + 1;
      }
      result.calls += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  result.elapsedMs = performance.now() - started;
  return result;
}
