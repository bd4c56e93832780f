import type { Caller } from '@bench/transports';

export interface SequentialRun {
  /** From before the first call to after the last reply: the experiment's "elapsed". */
  elapsedMs: number;
  latenciesMs: number[];
  /** TCP connect times of the calls that opened a connection (in call order). */
  connectMs: number[];
}

/** `calls` calls one after the other, each timed; a failing call fails the run (its cell). */
export async function timeSequentialCalls(caller: Caller, calls: number): Promise<SequentialRun> {
  const latenciesMs = new Array<number>(calls);
  const connectMs: number[] = [];
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    const connect = await caller.call();
    latenciesMs[i] = performance.now() - t0;
    if (connect !== undefined) connectMs.push(connect);
  }
  return { elapsedMs: performance.now() - started, latenciesMs, connectMs };
}

/** Untimed calls first, so the JIT, the connection and the server's caches are warm. */
export async function warmUp(caller: Caller, calls: number): Promise<void> {
  for (let i = 0; i < calls; i++) await caller.call();
}

/** The order of transports in round `round`: rotated each round, so none always goes first or last. */
export function rotate<T>(items: readonly T[], round: number): T[] {
  const k = round % Math.max(1, items.length);
  return [...items.slice(k), ...items.slice(0, k)];
}
