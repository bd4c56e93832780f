// Load at a fixed rate (open loop): call i is due at start + i / rate whatever happened to the calls
// before it, and its latency is counted from when it was due, not from when it could be sent. A
// closed loop (or a late sender) waits for slow replies before it sends again, so it offers less load
// exactly when the server is slow and hides that wait from its percentiles (coordinated omission);
// counting from the due time puts it back, as wrk2 and HdrHistogram's corrected recording do.
import type { Histogram } from 'hdr-histogram-js';
import { latencyHistogram, recordMs } from '../common/hdr';

export interface OpenLoopResult {
  rate: number;
  durationMs: number;
  /** Calls due in the window (rate × duration). */
  due: number;
  /** Calls sent (a call due but never sent because too many were in flight counts as an error at the end). */
  sent: number;
  ok: number;
  errors: number;
  /** Up to 5 distinct messages with their counts. */
  errorKinds: Record<string, number>;
  /** Completed calls per second over the window and its drain. */
  throughputPerS: number;
  /** From the due time (what a caller at this rate waits): corrected for coordinated omission. */
  corrected: Histogram;
  /** From when the call was actually sent: the service time alone. */
  service: Histogram;
  /** How late the sender was, at most (ms): a large figure means the driver, not the server, fell behind. */
  maxSendLagMs: number;
  elapsedMs: number;
}

export interface OpenLoopOptions {
  rate: number;
  durationMs: number;
  /** Calls in flight at most; a due call waits for a free slot (its wait is part of its corrected latency). */
  maxInFlight: number;
  /** Calls still in flight this long after the window are counted as errors and not waited for. */
  drainMs: number;
  /** Told of every call as it ends (one still in flight after the drain too): when (ms since the start), its latency from its due time, and its error (undefined: it succeeded). */
  observe?(atMs: number, correctedMs: number, ok: boolean, error?: string): void;
}

export async function runOpenLoop(options: OpenLoopOptions, call: () => Promise<void>, now: () => number = () => performance.now()): Promise<OpenLoopResult> {
  const { rate, durationMs, maxInFlight } = options;
  const corrected = latencyHistogram();
  const service = latencyHistogram();
  const errorKinds: Record<string, number> = {};
  const due = Math.floor((rate * durationMs) / 1000);
  const interval = 1000 / rate;
  let sent = 0;
  let ok = 0;
  let errors = 0;
  let inFlight = 0;
  let maxSendLagMs = 0;
  let lastEnd = 0;
  /** Due times of the calls in flight, so those abandoned after the drain are told of too. */
  const pending = new Set<number>();
  const fail = (kind: string) => {
    errors += 1;
    if (kind in errorKinds || Object.keys(errorKinds).length < 5) errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
  };
  const start = now();
  let idle: (() => void) | null = null;
  const send = (i: number) => {
    const dueAt = start + i * interval;
    const sentAt = now();
    maxSendLagMs = Math.max(maxSendLagMs, sentAt - dueAt);
    sent += 1;
    inFlight += 1;
    pending.add(dueAt);
    call().then(
      () => {
        const end = now();
        ok += 1;
        recordMs(corrected, end - dueAt);
        recordMs(service, end - sentAt);
        lastEnd = end;
        options.observe?.(end - start, end - dueAt, true);
      },
      (error: unknown) => {
        lastEnd = now();
        const message = error instanceof Error ? error.message : String(error);
        fail(message);
        options.observe?.(lastEnd - start, lastEnd - dueAt, false, message);
      },
    ).finally(() => {
      pending.delete(dueAt);
      inFlight -= 1;
      idle?.();
    });
  };
  // Sleep until the next call is due (or a slot frees) and send every call due by then: above ~1,000
  // calls/s a timer cannot fire per call, so calls leave in small bursts, each timed from its own due time.
  while (sent < due) {
    const dueNow = Math.min(due, Math.floor((now() - start) / interval) + 1);
    while (sent < dueNow && inFlight < maxInFlight) send(sent);
    if (sent < due) {
      await new Promise<void>((resolve) => {
        idle = inFlight >= maxInFlight ? resolve : null;
        setTimeout(resolve, Math.max(0, start + sent * interval - now()));
      });
    }
    idle = null;
  }
  const drainUntil = start + durationMs + options.drainMs;
  while (inFlight > 0 && now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 5));
  const abandoned = inFlight;
  const given = `no reply within ${options.drainMs} ms after the window`;
  for (let i = 0; i < abandoned; i++) fail(given);
  const endedAt = now();
  for (const dueAt of pending) options.observe?.(endedAt - start, endedAt - dueAt, false, given);
  const elapsedMs = Math.max(lastEnd, start + durationMs) - start;
  return { rate, durationMs, due, sent, ok, errors, errorKinds, throughputPerS: (1000 * ok) / elapsedMs, corrected, service, maxSendLagMs, elapsedMs };
}
