// What bench:all records about how it ran, beside its cells: the records of its settings and provenance
// (RunDocument, model.ts) that run/ writes while the run goes and results.md and report.html read.
import type { Failure } from './failure';

/** Whether the apps were pinned to cores (--pin), which, and why not. */
export interface Pinning {
  requested: boolean;
  pinned: boolean;
  /** taskset CPU lists per app, when pinned. */
  cores: Partial<Record<string, string>> | null;
  cpuCount: number;
  reason: string | null;
}

/** One runtime's node and what every app of each variant ran on (provenance.runtimes[name]). */
export interface RuntimeProvenance {
  version: string;
  binary: string;
  /** Where its node came from: the bench's own process, the project's npm ci, the cache, or fetched now. */
  source: 'bench' | 'project' | 'cache' | 'fetched';
  /** Per variant and app, read from the running process (run/app-runtimes.ts). */
  apps: Record<string, Record<string, AppRuntimeRecord>>;
}

/** The versions provenance keeps per app: the ones that decide what is measured (V8's JSON, OpenSSL, llhttp's HTTP/1 parser). */
export interface AppRuntime {
  executable: string;
  node: string;
  v8: string;
  openssl: string;
  llhttp: string;
  uv: string;
  nghttp2: string;
}

/** What an app ran on, or why that could not be read. */
export type AppRuntimeRecord = AppRuntime | { error: string };

/**
 * Why: app sets stay up between their visits, and a set that has just served a heavy case goes on
 * working for a while after its last reply (V8 shrinking a heap of hundreds of MB, sockets closing).
 * On two cores that work would land in the next visit's calls. So before a visit, the bench waits
 * until every other set's processes used at most `maxTicks` CPU ticks in a window, or gives up (and
 * times anyway) after `timeoutMs` (run/quiesce.ts).
 */
export interface QuietRule {
  windowMs: number;
  maxTicks: number;
  timeoutMs: number;
}

/** The quiet waits of a run (settings.quietWaits): the rule, how many visits waited, how long, how many gave up. */
export interface QuietWaits {
  rule: QuietRule;
  visits: number;
  totalMs: number;
  notQuiet: number;
}

/** A restart or a give-up of a set of apps, as recorded in settings.restarts. */
export interface SetEvent {
  variant: string;
  set: string;
  at: string;
  cause: Failure;
  action: 'restarted' | 'failed its remaining visits' | 'stopped (no visits left)';
}
