// The brokers of one visit's transports, read around their timed calls: each broker's own counters just
// before the visit's first timed call and just after its last (a reading may take a second or two:
// Mosquitto waits for its next $SYS publication, Kafka's reader is a JVM), and its process's CPU around
// each timed call of its transport (a /proc read), so the other transports' calls in between are left out.
import { countersBetween, type BrokerCost, type BrokerCounters, type Transport } from '../model';

/** A running broker as the runner reads it (run/ hands in the run's: brokers/' Broker). */
export interface BrokerMeter {
  kind: string;
  /** Its own cumulative counters. */
  counters(): Promise<BrokerCounters>;
  /** Its process's cumulative CPU (user + system, ms, its threads' run time) and its peak resident memory since the last reset (`resetPeak` opens a new window). */
  sample(resetPeak?: boolean): { cpuMs: number; peakRssBytes: number };
}

/** Which broker a transport goes through, if any. */
export type BrokerMeters = (transport: Transport) => BrokerMeter | undefined;

/** One transport's broker over the visit's timed calls, as it accumulates; `lost`: a reading failed. */
interface Part {
  meter: BrokerMeter;
  calls: number;
  cpuMs: number;
  peakRssBytes: number;
  before: BrokerCounters | null;
  counters: BrokerCounters | null;
  lost: boolean;
}

/** Reads each broker once, all at once (null: the reading failed). */
async function readAll(meters: readonly BrokerMeter[]): Promise<Map<BrokerMeter, BrokerCounters | null>> {
  const readings = await Promise.all(meters.map((m) => m.counters().catch(() => null)));
  return new Map(meters.map((m, i) => [m, readings[i]]));
}

/** The brokers of one visit's transports over its timed calls. */
export class BrokerStretch {
  private readonly parts = new Map<Transport, Part>();

  constructor(transports: readonly Transport[], meterOf: BrokerMeters | undefined) {
    for (const transport of transports) {
      const meter = meterOf?.(transport);
      if (meter) this.parts.set(transport, { meter, calls: 0, cpuMs: 0, peakRssBytes: 0, before: null, counters: null, lost: false });
    }
  }

  private get meters(): BrokerMeter[] {
    return [...new Set([...this.parts.values()].map((p) => p.meter))];
  }

  /** Whether `transport` goes through a broker (its raw result then carries `broker`). */
  has(transport: Transport): boolean {
    return this.parts.has(transport);
  }

  /** Before the first timed call: each broker's counters, and a new peak-memory window. */
  async begin(): Promise<void> {
    if (this.parts.size === 0) return;
    const readings = await readAll(this.meters);
    for (const meter of this.meters) this.guard(meter, () => meter.sample(true));
    for (const part of this.parts.values()) part.before = readings.get(part.meter) ?? null;
  }

  /** Runs one timed call of `transport`, adding its broker's CPU over it. */
  async around<T>(transport: Transport, call: () => Promise<T>): Promise<T> {
    const part = this.parts.get(transport);
    if (!part || part.lost) return call();
    const before = this.guard(part.meter, () => part.meter.sample());
    try {
      return await call();
    } finally {
      const after = this.guard(part.meter, () => part.meter.sample());
      part.calls++;
      // A thread of the broker that ended meanwhile takes its run time with it: never less than nothing.
      if (before && after) part.cpuMs += Math.max(0, after.cpuMs - before.cpuMs);
    }
  }

  /** After the last timed call: each broker's counters again, and its peak since begin(). */
  async end(): Promise<void> {
    if (this.parts.size === 0) return;
    const readings = await readAll(this.meters);
    for (const part of this.parts.values()) {
      const last = this.guard(part.meter, () => part.meter.sample());
      if (last) part.peakRssBytes = last.peakRssBytes;
      const after = readings.get(part.meter) ?? null;
      part.counters = part.before && after ? countersBetween(part.before, after) : null;
    }
    // A broker two transports of the visit go through counts both: said where its figures are read.
    for (const part of this.parts.values()) {
      const sharing = [...this.parts.entries()].filter(([, p]) => p.meter === part.meter).map(([t]) => t);
      if (sharing.length > 1 && part.counters) part.counters = { ...part.counters, source: `${part.counters.source}; counts ${sharing.join(' and ')} together` };
    }
  }

  /** The broker's part of `transport`'s timed calls; null when its process could not be read. */
  costOf(transport: Transport): BrokerCost | null {
    const part = this.parts.get(transport);
    if (!part || part.lost) return null;
    const round = (ms: number) => Math.round(ms * 1000) / 1000;
    return { kind: part.meter.kind, calls: part.calls, cpuMs: round(part.cpuMs), peakRssBytes: part.peakRssBytes, counters: part.counters };
  }

  /** A sample, or null (and every part on that broker lost) when its process cannot be read: it died. */
  private guard<T>(meter: BrokerMeter, read: () => T): T | null {
    try {
      return read();
    } catch {
      for (const part of this.parts.values()) if (part.meter === meter) part.lost = true;
      return null;
    }
  }
}
