// The core of every results.json, bench:all's (RunDocument, model.ts) and a suite's (suites/common/
// document.ts): whether the run finished, how and where it was made (provenance) and with what settings.
// Both kinds extend it, so what reads any run (the runs' index page, the report frame) reads this.
import type { RuntimeInfo } from '@bench/config';
import type { Kdamond } from './memory-reclaim';

/** What a network stage's calibration achieved: the part of network/stage/stage.ts's Calibration that results read. */
export interface CalibrationRecord {
  verdict?: string;
  reasons?: string[];
  achieved: { tcpConnectRttMs: { median: number }; pingRttMs: { median: number } | null; throughput: { steadyMbit: number } };
  /** With a broker namespace: each broker hop's TCP connect RTT (network/stage's brokerHops; absent without one). */
  brokerHops?: { clientToBrokerMs: { median: number }; serverToBrokerMs: { median: number } };
}

/** One network a run measured across (provenance.networks[name]): its profile, what its stage achieved, what it cost. */
export interface NetworkRecord {
  profile: { name: string; description: string; oneWayDelayMs: number; rateMbit: number | null; loss: number };
  /** The stage's own calibration, or null for loopback (no stage) and a stage that did not start. */
  calibration: CalibrationRecord | null;
  /** The delayer's CPU over the measured part of the run (after calibration), when the profile delays. */
  delayerCpu: { cpuMs: number; packets: number; cpuPerPacketUs: number | null; receiveCpuMs?: number } | null;
  /** Why nothing was measured across it, when so. */
  refused: string | null;
  /**
   * A path profile's parts as built (names, mesh: network/path/path.ts's PathRecord) and its check (bench:all:
   * its first set's; each set's is in settings.startedApps[].path); absent for a bare network.
   */
  path?: NetworkPathRecord;
  /** The brokers the run started across it for its Nest transports, by kind (run/run-brokers.ts); absent without any. */
  brokers?: Record<string, BrokerRunRecord>;
}

/** One broker as a run started it: its version read from it, where it listened, and the settings that matter. */
export interface BrokerRunRecord {
  version: string;
  address: string;
  placement: string;
  config: Record<string, string | number | boolean>;
  /** The tunings its config applies (libs/config TUNINGS with a broker, e.g. nats-max-payload), and the variants whose apps used it; absent: its defaults, for every variant. */
  tunings?: string[];
  variants?: string[];
  /** Kafka's untimed warm-up before the run's first timed visit (brokers/kafka/warm-up.ts), why it failed, or that it was left out (BENCH_KAFKA_WARM_UP=off). */
  warmUp?: KafkaWarmUp | { error: string } | { skipped: string };
}

/** What warming a Kafka broker took: its rounds (a record produced and consumed), their batches' medians, and whether the round trip settled. */
export interface KafkaWarmUp {
  ms: number;
  /** Rounds of records in flight at once (brokers/kafka/warm-up.ts WARM_UP_IN_FLIGHT), and the records they produced and consumed. */
  rounds: number;
  records: number;
  /** The first round: the consumer's group join, not counted in the rounds. */
  joinMs: number;
  /** A round's time (all its records produced and consumed): the first and the last batch's median, and every batch's. */
  firstMedianMs: number;
  lastMedianMs: number;
  batchMediansMs: number[];
  settled: boolean;
  /**
   * Its second phase, after the records: requests through Nest's own Kafka client and server, rounds of one
   * request alone then WARM_UP_REQUESTS at once, judged by the same rule (`calls`: the requests answered;
   * `joinMs`: the first, the consumers' group joins). Absent in runs before it.
   * `brokerCpuPerCallMs`: the broker process's CPU per request over each batch, which the rule judged
   * (absent: the broker's process could not be read, or a run before it: the rounds' medians judged).
   */
  requests?: { ms: number; rounds: number; calls: number; joinMs: number; firstMedianMs: number; lastMedianMs: number; batchMediansMs: number[]; settled: boolean; brokerCpuPerCallMs?: number[] };
}

/** What results read of a path's record (network/path/path.ts writes more). */
export interface NetworkPathRecord {
  features: string[];
  mesh: { envoy: string; concurrency: number; http2?: { initialStreamWindowSize: number; initialConnectionWindowSize: number; perConnectionBufferLimitBytes: number } } | null;
  check: {
    verdict: 'ok' | 'refuse';
    reasons: string[];
    lookup: { roundTrips: number; medianMs: number; expectedMs: number } | null;
    meshRequest: { medianMs: number; expectedMs: number; sidecarsMs: number } | null;
  };
}

/** How a run was made (model/provenance.ts): the code, the machine, the bench's runtime, the command line. */
export interface Provenance {
  gitCommit: string | null;
  gitDirty: boolean | null;
  hostname: string;
  loadAverage: number[];
  memoryReclaim: Kdamond[] | null;
  bench: RuntimeInfo;
  arguments: readonly string[];
  /** When the run ended; absent while it runs and when it was killed. */
  finishedAt?: string;
  /** The networks it measured across, by profile name; absent in runs from before the network stage. */
  networks?: Record<string, NetworkRecord>;
}

/** What every run's settings start with: when it started and with which preset (--profile). */
export interface Settings {
  startedAt: string;
  /** The preset's name (--profile: plan/presets.ts, a suite's presets); absent in runs from before it (settings.profile). */
  preset?: string;
  /** Runs before settings.preset named their preset here; read through presetOf, never written. */
  profile?: string;
}

/** A run's preset, whichever name its settings recorded it under ('?' when neither). */
export function presetOf(settings: Pick<Settings, 'preset' | 'profile'>): string {
  return String(settings.preset ?? settings.profile ?? '?');
}

/** The part every results.json shares; each kind adds its schemaVersion, results and own settings and provenance. */
export interface ResultsDocument<S extends Settings = Settings, P extends Provenance = Provenance> {
  /** True until the run has done all it planned (an interrupted or crashed run stays incomplete). */
  incomplete: boolean;
  provenance: P;
  settings: S;
}
