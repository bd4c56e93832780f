// The one contract every broker folder fills (nats/, redis/, rabbitmq/, mosquitto/, kafka/): what it is
// and where it comes from (its record), and how one instance of it is configured, started, read and
// stopped for a run (its launch). start.ts turns a launch into a running Broker.

import type { BrokerKind } from '@bench/config';
import type { BrokerCounters } from '../model';

// The brokers the bench starts are the ones the transports name (libs/config's BROKER_KINDS).
export { BROKER_KINDS, type BrokerKind } from '@bench/config';

/** A Debian package pinned to the exact version `apt-get install pkg=version` takes. */
export interface DebianPackage {
  name: string;
  version: string;
}

/** Where a broker's files come from: Debian's packages, or jars Maven resolves from Maven Central. */
export type InstallSource =
  | { kind: 'debian'; packages: readonly DebianPackage[] }
  | { kind: 'maven'; artifacts: readonly string[] };

export interface BrokerRecord {
  kind: BrokerKind;
  /** The product's name: `nats-server`, `Apache Kafka`. */
  name: string;
  source: InstallSource;
  /** The upstream version the pin gives (what the running broker reports). */
  version: string;
  /** The bench's transports that go through it. */
  transports: readonly string[];
}

/** Where an installed broker is: its main binary (or the cache folder of its jars). */
export interface Installation {
  where: string;
}

// The counters' shape is the results document's (a cell's broker figures hold a difference of two readings).
export { countersBetween, type BrokerCounters } from '../model';

/** The broker process's own cost, as the apps' samples: CPU cumulative, peak RSS per window. */
export interface BrokerSample {
  pid: number;
  /** User and system CPU as the kernel's clock ticks count them (10 ms steps). */
  cpuUserMs: number;
  cpuSystemMs: number;
  /** Its threads' run time (user + system) to the nanosecond, in ms (proc.ts' runTimeMs): what a cell's figures are read from. */
  cpuMs: number;
  rssBytes: number;
  /** The peak resident memory since the last sample(true) (the kernel's VmHWM, reset by it), or since start. */
  peakRssBytes: number;
}

/** One running broker, as a run sees it. */
export interface Broker {
  kind: BrokerKind;
  /** What a Nest client and server connect to: `nats://127.0.0.1:24222`, `redis://…`, `amqp://…`, `mqtt://…`, and for Kafka `host:port`, the broker list its clients take. */
  url: string;
  /** host:port of its client listener. */
  address: { host: string; port: number };
  /** The version the running broker reports. */
  version: string;
  /** The settings that matter, for provenance (no secret: there is none; every client is anonymous or the default guest). */
  config: Record<string, string | number | boolean>;
  /** The process sampled (RabbitMQ: beam.smp, not its start script). */
  pid: number;
  counters(): Promise<BrokerCounters>;
  /** A reading of its CPU and memory; `resetPeak` opens a new peak window. */
  sample(resetPeak?: boolean): BrokerSample;
  /** Stops it (SIGTERM, SIGKILL after a grace) and removes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** What a broker folder gets to lay out one instance. */
export interface LaunchContext {
  /** The instance's own folder (config, data, logs): removed at stop. */
  dir: string;
  /** The address it listens on and clients dial: 127.0.0.1, or its namespace's address across a stage. */
  host: string;
  /** A free port (libs/config's freePort). */
  port(): Promise<number>;
  /** Runs a command to its end (in the broker's namespace, if any) and returns its stdout. */
  run(argv: readonly string[], timeoutMs?: number): Promise<string>;
  /** A command as run in the broker's namespace, if any (for readers that stream). */
  wrap(argv: readonly string[]): string[];
}

/** A protocol-level readiness check: bytes to send and what the broker's answer must match (latin1). */
export interface Probe {
  send: Buffer;
  /** Matched against the reply read as latin1 (one char per byte). */
  reply: RegExp;
}

/** How one instance starts and is read, once its config is written. */
export interface Launch {
  /** Processes to start first and keep until stop (RabbitMQ's own epmd). */
  companions?: readonly { argv: readonly string[]; env?: NodeJS.ProcessEnv }[];
  argv: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** The process to sample when it is not the one started (RabbitMQ's beam.smp under its start script). */
  sampled?: { descendant: string };
  port: number;
  url: string;
  probe: Probe;
  /** How long it may take to answer the probe (RabbitMQ and Kafka boot a VM). */
  readyWithinMs: number;
  config: Broker['config'];
  /** Its version, read from the running broker. */
  version(): Promise<string>;
  counters(): Promise<BrokerCounters>;
}

/** A broker folder's face: its record, where it is installed, and how to launch an instance. */
export interface BrokerDefinition {
  record: BrokerRecord;
  /** Where it is installed, or null when it is not (or not the pinned version). */
  installation(): Installation | null;
  launch(context: LaunchContext): Promise<Launch>;
}

/** Only the counters of a reading that holds more (a version, …). */
export function countersOf(reading: BrokerCounters): BrokerCounters {
  return { messagesIn: reading.messagesIn, messagesOut: reading.messagesOut, bytesIn: reading.bytesIn, bytesOut: reading.bytesOut, source: reading.source };
}
