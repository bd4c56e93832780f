// The one result type that joins measuring, statistics and exporting (as in hyperfine).
import type { Failure } from './failure';
export type { Failure } from './failure';
import type { PathCounters } from './path-counters';
import type { VisitDisturbance } from './disturbance';
import type { BrokerCost } from './broker-cost';
import type { CellCpuProfile } from './cpu-profile';
import type { ProcessCost } from '@bench/config';
import type { CallSamples, Phases } from '@bench/harness';
import { TRANSPORT_NAMES, type Http2Windows, type TransportName } from '@bench/transports';
import type { Provenance, ResultsDocument, Settings } from './document';
import type { PathRecord } from './path-record';
import type { Pinning, QuietWaits, RuntimeProvenance, SetEvent } from './run-records';

/** CPU time and peak RSS of a process (libs/config), and where a call's time went (libs/harness): as the client reports them. */
export type { Phases, ProcessCost };

/**
 * Every transport the bench can measure, in report order: the clients' list (libs/transports TRANSPORT_NAMES):
 * the blog's two, the protocol × codec matrix's json-h2 and proto-h1, and connect-es's three (docs/decomposition.md).
 */
export const TRANSPORTS = TRANSPORT_NAMES;
export type Transport = TransportName;

/** The blog's two transports: what every variant serves, and what bench:all runs unless --transports says otherwise. */
export type BlogTransport = Extract<Transport, 'json' | 'grpc'>;
export const BLOG_TRANSPORTS: readonly BlogTransport[] = Object.freeze(['json', 'grpc'] as const);

/** A benchmark case is data: adding one is adding a record to cases.ts. */
export interface CaseRecord {
  /** The blog's id, e.g. `①-2`. */
  id: string;
  /** Easy-to-type ids, e.g. `1-2`. */
  aliases: readonly string[];
  /** Rows per request. */
  rows: number;
  /** Requests fired at once and awaited together (forkJoin). */
  requests: number;
  /** The blog's average for each transport, in ms (reference, not a target); none for payload cases. */
  blogMs?: Readonly<Partial<Record<Transport, number>>>;
  /** The payload endpoint it calls (libs/payloads, see payload-cases.ts); absent: the blog's rows. */
  payload?: string;
  /** Timed repetitions for this case when the preset does not say otherwise (slow cases run fewer). */
  defaultRuns?: number;
  /** Forks for this case when the preset does not say otherwise (see Visit.forks). */
  defaultForks?: number;
  /** Visits for this case when the preset does not say otherwise (see Visit.visits). */
  defaultVisits?: number;
}

/** One case as the runner will execute it: its transports' repetitions interleaved (A B A B …). */
export interface Visit {
  /** Which network profile it runs across (network/stage/profiles.ts): `loopback` unless --network says otherwise. */
  network: string;
  /** Which Node runtime its Node apps run on (runtimes.ts's name, e.g. `24`): DEFAULT_RUNTIME unless --node says otherwise. */
  runtime: string;
  /** What its connections between the services are wrapped in (libs/config SECURITY_MODES): `plain` unless --security says otherwise. */
  security: string;
  /** Which set of apps runs it (variants.ts). */
  variant: string;
  record: CaseRecord;
  transports: Transport[];
  /** Untimed calls per transport after the cold call, at least. */
  warmup: number;
  /**
   * Go on warming up (one untimed call at a time) until this many ms have passed since the cold call:
   * V8 needs tens of calls before the hot paths of client and servers are optimized, far more than a
   * fixed call or two for the small cases.
   */
  warmupMs: number;
  runs: number;
  /** Idle time before each timed call, so the previous call's background work (GC, socket teardown) ends first. */
  settleMs: number;
  /**
   * Sets of new server-a, server-b and client processes this case gets (as JMH forks a JVM), so no
   * case inherits the heaps and JIT state of another and no one set's luck decides a cell. A set stays
   * up, idle between its visits, until its case's last visit. 0: no forks, one set of apps serves every
   * case of the variant in one visit each (the blog's way; quick and --client-url).
   */
  forks: number;
  /** Which of those sets serves this visit: 1…forks, or 0 when forks is 0. */
  fork: number;
  /**
   * A case's timed runs are split over `visits` visits, dealt to its forks in turn, and the visits of
   * all cases are spread evenly over the variant's run. On a shared VM whose speed changes from second
   * to second and from minute to minute, a cell timed in a few stretches of seconds draws a few of
   * those states; one visited ten times across the run draws ten, and that is what makes two runs agree.
   */
  visits: number;
  /** Which of those visits this is: 1…visits. */
  visit: number;
  /**
   * The first visit of a fork makes a cold call (a new connection) before its warm-up; a later visit
   * finds its apps warm and only re-warms them (`warmupMs` is then the short re-warm).
   */
  cold: boolean;
  /** Interleaved position of this visit's first timed sample within the case (the visits before it used the rest). */
  firstPosition: number;
  /** Deadline of each of its calls (deadlines.ts): past it the call fails as DEADLINE_EXCEEDED. */
  deadlineMs: number;
  /**
   * This visit's share of its case's time budget (presets.ts): once its timed repetitions have taken
   * this long (and at least minRuns were made) it stops; `runs` is then a ceiling. null: all runs.
   */
  budgetMs: number | null;
  minRuns: number;
}

/**
 * What the client app answered for one request of the bench (raw, unsummarized): the reply of POST
 * /bench/run, CallSamples in libs/harness, which every client returns, less the case it echoes back.
 */
export type Measurement = Omit<CallSamples, 'transport' | 'rows' | 'requests'> & {
  /** Each timed call's own server phases, kept as the bench merges one-call answers (absent: one answer of many calls). */
  callPhases?: CallPhases;
};

/**
 * Each timed call's server encode and the GC pause inside it, parallel to samplesMs (null: not measured for
 * that call). Kept per call because a young-generation collection inside an encode splits a cell's calls in
 * two groups (analysis/modes.ts), which the phases' means cannot show.
 */
export interface CallPhases {
  serverEncodeMs: (number | null)[];
  serverEncodeGcMs: (number | null)[];
  /** Every GC pause of the serving server and of the client over the call (not only inside a phase). */
  serverGcMs: (number | null)[];
  clientGcMs: (number | null)[];
}

/** The phases of a cell with the mean call time and what the phases leave unexplained. */
export interface PhaseBreakdown extends Phases {
  /** Mean time of a timed call. */
  totalMs: number;
  /** total − build − encode − decode: framework, transport and waiting (null if a phase is unknown). */
  remainderMs: number | null;
}

/** Which case × transport a result belongs to, and how it was run. */
export interface CellKey {
  /** Which network profile it ran across (absent in runs from before the network stage: loopback). */
  network?: string;
  /**
   * Which Node runtime its apps ran on (runtimes.ts's name, e.g. `24`; provenance.runtimes has its exact
   * versions). Absent in runs from before --node (schema version 2): runtimeOf reads their provenance.
   */
  runtime?: string;
  /** plain, tls or mtls (libs/config SECURITY_MODES; absent in runs from before --security: plain). */
  security?: string;
  /** Which configuration served it: blog, tuned, bare (variants.ts). */
  variant: string;
  case: string;
  transport: Transport;
  rows: number;
  requests: number;
  warmup: number;
  runs: number;
  /** The blog's average for this cell, in ms (null: a case the blog did not have). */
  blogMs: number | null;
}

/** The runner's output for one case × transport: raw samples or the error that stopped it. */
export interface RawResult extends CellKey {
  startedAt: string;
  wallMs: number;
  /** Cold call, warm-up and every timed sample gathered over the interleaved repetitions. */
  measurement: Measurement | null;
  /** Position of each timed sample in the case's interleaved sequence (0, 2, 4 … for the first transport). */
  sampleOrder: number[];
  error: string | null;
  /** The same failure as data; null when it succeeded. */
  failure: Failure | null;
  /** The machine probe (machine-probe.ts) just before and just after the case, in ms; null when not run. */
  machineProbeMs: MachineProbeReading | null;
  /** Across a network stage: what its delayer spent over this cell's timed calls (absent on loopback). */
  delayer?: PathCost | null;
  /**
   * Across a stage: the server namespace's TCP counters (`tcp`: listen queue, SYN cookies, resets) and a path
   * profile's parts (names, mesh: the DNS server's queries, the sidecars' requests, connections and CPU),
   * over the timed calls; in a visit that failed, over every call up to the failure, cold call and warm-up included.
   * On loopback `tcp` alone: the host's counters (other connections on the host count too; absent with --client-url and in runs before issue #43).
   */
  pathCounters?: PathCounters | null;
  /** What else used the machine during each visit it pools (measure/disturbance.ts; one for a visit's own result); null where /proc could not be read; absent in runs before issue #43. */
  disturbance?: (VisitDisturbance | null)[];
  /** A transport through a broker (nest-redis, …): the broker's CPU, peak memory and own counters over the timed calls (model/broker-cost.ts); null where it could not be read; absent for a direct transport and in runs before it. */
  broker?: BrokerCost | null;
  /** The visits it pools, in visit order (one for a visit's own result): which set of apps served each and how many of the samples it gave. */
  visits?: CellVisit[];
}

/**
 * One visit of a cell: its number, the fork (set of apps: 0 when the variant has one set for all cases)
 * that served it, and how many timed calls it gave — the cell's samples and callPhases hold them in this order.
 */
export interface CellVisit {
  visit: number;
  fork: number;
  calls: number;
}

/**
 * The network stage's delayer over some calls: its CPU (user + system, including the router's forwarding
 * of each packet it releases) and the packets it held. Set beside the client's and server's CPU of the
 * same calls, it says how much of the machine the emulated path took from the apps.
 */
export interface PathCost {
  cpuMs: number;
  packets: number;
  /**
   * CPU of the servers' receive thread over the same calls: their network stack's work on the packets
   * the delayer released (a host's NIC receive on a real network). Absent when the stage had no such
   * thread (that work is then inside cpuMs) or in results written before it existed.
   */
  receiveCpuMs?: number;
}

export interface MachineProbeReading {
  before: number;
  after: number;
}

/** A confidence interval of the median; `coverage` is the exact coverage of the order statistics used. */
export interface MedianCi {
  level: number;
  low: number;
  high: number;
  coverage: number;
}

/** Samples far from the rest; `indices` point into `samplesMs`. Reported, never dropped. */
export interface Outliers {
  method: string;
  threshold: number;
  indices: number[];
  values: number[];
}

export interface Summary {
  n: number;
  median: number;
  mean: number;
  min: number;
  max: number;
  p95: number;
  /** Only with enough samples (stats.P99_MIN_SAMPLES), else null. */
  p99: number | null;
  stddev: number;
  /** Coefficient of variation: stddev / mean. */
  cv: number;
  /** 95 % confidence interval of the median, null with too few samples (n < 6). */
  medianCi: MedianCi | null;
  outliers: Outliers;
  /** CV above 10 % or median under 1 ms: read the digits with care. */
  noisy: boolean;
  noise: string[];
}

/** One row of results.json. */
export interface Cell extends CellKey {
  samplesMs: number[];
  warmupMs: number[];
  coldMs: number | null;
  /** Encoded bytes of one response body. */
  bytes: number | null;
  /** Encoded bytes of all responses of one call (bytes × requests). */
  bytesPerCall: number | null;
  rowsPerCall: number | null;
  /** Position of each sample in the case's interleaved sequence (see settings.order). */
  sampleOrder: number[];
  ok: boolean;
  error: string | null;
  /** Why it failed, as data (kind, process, exit, log tail); null when ok (absent in older runs). */
  failure?: Failure | null;
  summary: Summary | null;
  /** Client's and serving server's CPU time (summed) and peak RSS (max) over the timed calls. */
  client: ProcessCost | null;
  server: ProcessCost | null;
  /** Where the time of a timed call went, on average. */
  phases: PhaseBreakdown | null;
  /** Each timed call's server encode and GC inside it, parallel to samplesMs (absent in runs before it). */
  callPhases?: CallPhases;
  /** HTTP/2 transports whose client reads its session: the receive windows it had (absent: not HTTP/2, or not readable). */
  http2Windows?: Http2Windows | null;
  /** Under TLS (--security): the client's handshakes in the cold call and over the timed calls (absent in cleartext). */
  tls?: Measurement['tls'];
  startedAt: string;
  wallMs: number;
  /** The machine probe before and after the case (ms, lower is faster); null in older runs. */
  machineProbeMs: MachineProbeReading | null;
  /** Across a network stage: the delayer's CPU and packets over the timed calls (absent on loopback and in older runs). */
  delayer?: PathCost | null;
  /** As RawResult's (the TCP counters where the servers listen, on loopback the host's; a path profile's DNS and sidecar counts), over the timed calls or, failed, up to the failure. */
  pathCounters?: PathCounters | null;
  /** Each visit's disturbance, in visit order (null: not readable); absent in runs before issue #43. */
  disturbance?: (VisitDisturbance | null)[];
  /** As RawResult's: the broker's part over the timed calls, every visit's summed (absent for a direct transport). */
  broker?: BrokerCost | null;
  /** Each visit it pools, in visit order: its fork and its number of samples (absent in runs before it). */
  visits?: CellVisit[];
  /** --cpu-profile: each process's CPU profile over the cell's timed calls, by package (model/cpu-profile.ts); absent without it. */
  cpuProfile?: CellCpuProfile;
}

/** results.json's schema: 3 keys every cell by its runtime too (version 2 documents are still read). */
export const SCHEMA_VERSION = 3;

/**
 * bench:all's settings: what it was asked for and how it ran the cases (main.ts writes them). Optional:
 * what runs from before the field existed lack.
 */
export interface BenchSettings extends Settings {
  runtimes?: { name: string; version: string }[];
  /** --cpu-profile: every timed call ran under the apps' CPU profilers, sampling every intervalUs (absent: not profiled). */
  cpuProfile?: { intervalUs: number };
  /** The security modes the run measured (--security; libs/config SECURITY_MODES); absent in runs from before it: plain. */
  security?: { name: string; what: string }[];
  variants?: { id: string; description: string; mains: Readonly<Record<string, string>>; env: Readonly<Record<string, string>> }[];
  cases: string[];
  transports: Transport[];
  runs: number;
  runsOverride?: number | null;
  warmup: number;
  warmupMs?: number;
  settleMs?: number;
  forks?: number | null;
  forksPerCase?: Record<string, number>;
  visits?: number | null;
  visitsPerCase?: Record<string, number>;
  rewarmMs?: number;
  /** Timed calls per case after which a visit stops repeating; null: every run is made. */
  budgetMs?: number | null;
  minRunsPerVisit?: number;
  coldCallPerCase?: boolean;
  order?: string;
  clientUrl: string | null;
  /** Whether the apps were pinned, in runs from before provenance.pinning. */
  pinned?: boolean;
  /** Every set of apps started, per variant: where, for which cases, its pids, ports and Node flags. */
  startedApps?: Record<string, Record<string, unknown>[]>;
  quietWaits?: QuietWaits;
  keepWarmNodeFlags?: readonly string[];
  deadlines?: { rule: string; override: number | null; perCaseMs: Record<string, number> };
  failurePolicy?: string;
  restarts?: SetEvent[];
  /** The start line's estimate, and the past runs it was costed from (measure/estimate.ts; empty: the blog's figures). */
  expectedMs?: number;
  expectedFrom?: string[];
  boundMs?: number;
  /** What bench:compare checks a run against (completeness.ts). */
  plannedCells?: PlannedCell[];
  visitsDone?: Record<string, number>;
  /** Optional variants that could not run here, with why. */
  skippedVariants?: Record<string, string>;
}

/** bench:all's provenance: the core's, with the pinning, each variant's client and runtime, and its measured path. */
export interface BenchProvenance extends Provenance {
  pinning?: Pinning;
  /** Each client's description of itself (GET /bench/info), by variant (`variant@nodeN` off the default runtime). */
  clients?: Record<string, Record<string, unknown>>;
  /** The first client's, as runs from before variants recorded it. */
  client?: Record<string, unknown>;
  runtimes?: Record<string, RuntimeProvenance>;
  /** The client's own measurement of its path before and after each variant, by network/variant. */
  path?: Record<string, PathRecord>;
}

export interface RunDocument extends ResultsDocument<BenchSettings, BenchProvenance> {
  schemaVersion: 2 | typeof SCHEMA_VERSION;
  results: Cell[];
}

/** One cell the run planned, with the visits it was to get (settings.plannedCells). */
export interface PlannedCell {
  network: string;
  /** Absent in runs from before --node (schema 2). */
  runtime?: string;
  variant: string;
  case: string;
  transport: Transport;
  visits: number;
}
