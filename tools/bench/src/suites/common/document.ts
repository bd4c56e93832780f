import * as os from 'node:os';
import type { SuiteProfile } from './args';

/** results.json of a suite run: the source of truth its Markdown and HTML are rendered from. */
export interface SuiteDocument<S, R> {
  schemaVersion: 1;
  suite: string;
  /** True while the run is going and when it was stopped early: what is here was measured. */
  incomplete: boolean;
  provenance: Record<string, unknown>;
  settings: S & { startedAt: string; profile: SuiteProfile; cpuCount: number; cores: string };
  /** The data records the run used (contenders, payloads, sweep), as they were. */
  plan: Record<string, unknown>;
  results: R;
}

/** What the cores were shared between: on a small machine the load generator competes with the server. */
export function coresNote(cpuCount = os.cpus().length): string {
  return `${cpuCount} CPU${cpuCount === 1 ? '' : 's'}, not pinned: the bench process (the calling client) and the server under test share them; the other server and the idle client app wait`;
}
