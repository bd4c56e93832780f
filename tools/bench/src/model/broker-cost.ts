// What the broker a cell's transport goes through did over the cell's timed calls (issue #42, item 3): its
// own counters (messages and bytes, read from the broker itself) and its process's CPU and peak memory,
// summed over the cell's visits as the apps' CPU is. measure/ reads them, analysis/ turns them into figures
// per call and per 1,000 calls.

/**
 * A broker's own counters (brokers/contract.ts reads them; cumulative since it started, or a difference).
 * null: the broker does not count it. Each counts every client of the broker, the bench's readings
 * included where `source` says they add to it.
 */
export interface BrokerCounters {
  messagesIn: number | null;
  messagesOut: number | null;
  bytesIn: number | null;
  bytesOut: number | null;
  /** Where each figure was read (`/varz in_msgs`, `INFO commandstats cmdstat_publish`, …) and what it leaves out. */
  source: string;
}

/** The broker's part of a cell: over its timed calls (in a failed cell, those made up to the failure). */
export interface BrokerCost {
  /** Which broker: nats, redis, rabbitmq, mosquitto, kafka (libs/config BROKER_KINDS). */
  kind: string;
  /** Timed calls the figures are over: every visit's, failed ones included. */
  calls: number;
  /**
   * The broker process's CPU (user + system: its threads' run time, to the nanosecond) over those calls,
   * read around each, so the other transports' calls between them are left out.
   */
  cpuMs: number;
  /** Its peak resident memory over the visits' timed calls (the highest visit's). */
  peakRssBytes: number;
  /** Its counters between just before a visit's first timed call and just after its last, summed over visits; null once a reading failed. */
  counters: BrokerCounters | null;
}

const minus = (a: number | null, b: number | null) => (a === null || b === null ? null : a - b);

/** What a cell's traffic did at the broker: `after` − `before` of two cumulative readings (null stays null). */
export function countersBetween(before: BrokerCounters, after: BrokerCounters): BrokerCounters {
  return {
    messagesIn: minus(after.messagesIn, before.messagesIn),
    messagesOut: minus(after.messagesOut, before.messagesOut),
    bytesIn: minus(after.bytesIn, before.bytesIn),
    bytesOut: minus(after.bytesOut, before.bytesOut),
    source: after.source,
  };
}

const plus = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);

/** Two stretches' counters together (a figure unknown in either stays unknown); the source is the first's. */
export function addBrokerCounters(a: BrokerCounters | null, b: BrokerCounters | null): BrokerCounters | null {
  if (!a || !b) return null;
  return { messagesIn: plus(a.messagesIn, b.messagesIn), messagesOut: plus(a.messagesOut, b.messagesOut), bytesIn: plus(a.bytesIn, b.bytesIn), bytesOut: plus(a.bytesOut, b.bytesOut), source: a.source };
}

/** Two visits' broker costs as one: calls and CPU add up, the peak is the higher; unknown (null) once either is. */
export function addBrokerCost(a: BrokerCost | null, b: BrokerCost | null): BrokerCost | null {
  if (!a || !b) return null;
  return {
    kind: a.kind,
    calls: a.calls + b.calls,
    cpuMs: Math.round((a.cpuMs + b.cpuMs) * 1000) / 1000,
    peakRssBytes: Math.max(a.peakRssBytes, b.peakRssBytes),
    counters: addBrokerCounters(a.counters, b.counters),
  };
}
