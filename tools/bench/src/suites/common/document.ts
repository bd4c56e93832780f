import * as os from 'node:os';
import type { AppRuntimeRecord, BrokerRunRecord, ProfiledRecord, Provenance, ResultsDocument, Settings } from '../../model';
import type { SuitePreset } from './args';

/** What every suite's settings record beside its own numbers. */
export interface SuiteSettings extends Settings {
  /** The preset (--profile) the run took its defaults from (runs before it: settings.profile, read through presetOf). */
  preset: SuitePreset;
  /** The network profile and the runtime it ran on (absent in runs from before --network and --node). */
  network?: string;
  node?: string;
  /** The security mode its connections to the servers ran under (absent in runs from before --security on the suites: plain). */
  security?: string;
  cpuCount: number;
  /** --cpu-profile: every measured part ran under the profilers, sampling every intervalUs (absent: not profiled). */
  cpuProfile?: { intervalUs: number };
  /** What the cores were shared between (coresNote), and across which network stage. */
  cores: string;
}

/** A suite's provenance: the core's, with what the servers ran on when the suite started them. */
export interface SuiteProvenance extends Provenance {
  /** Per app (server-a, server-b), read from its running process (run/app-runtimes.ts). */
  apps?: Record<string, AppRuntimeRecord>;
  /** The brokers the run's Nest transports went through, as the run started them (run/run-brokers.ts): version, address, placement, config. */
  brokers?: Record<string, BrokerRunRecord>;
}

/** results.json of a suite run: the source of truth its Markdown and HTML are rendered from. */
export interface SuiteDocument<S, R> extends ResultsDocument<S & SuiteSettings, SuiteProvenance> {
  /**
   * 2: the ways of calling a suite compares are `transport` (plan.transports, cells[].transport) and a failed
   * measurement records a Failure (kind, message); version 1 said `contender` and had an `error` string.
   */
  schemaVersion: 2;
  suite: string;
  /** The data records the run used (transports, payloads, sweep), as they were. */
  plan: Record<string, unknown>;
  results: R;
  /**
   * --cpu-profile: per measured unit (the suite's cell key as its case and transport) each profiled
   * process's summary by package (common/profiling.ts); absent without it.
   */
  cpuProfiles?: ProfiledRecord[];
}

/** What the cores were shared between: on a small machine the load generator competes with the server. */
export function coresNote(cpuCount = os.cpus().length): string {
  return `${cpuCount} CPU${cpuCount === 1 ? '' : 's'}, not pinned: the bench process (the calling client) and the server under test share them; the other server and the idle client app wait`;
}
