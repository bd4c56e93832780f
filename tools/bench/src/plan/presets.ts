// bench:all's presets (--profile NAME): named schedules of a run, each a set of defaults that options on
// the command line override. "Profile" is the network's word (network/stage/profiles.ts); the option keeps
// its name, and results.json's settings.preset names it (settings.profile in runs before it).

/** A preset: a named set of defaults for a run's schedule. */
export interface Preset {
  name: string;
  /** One line for --help. */
  description: string;
  /** Case ids (or aliases) to run when --cases is not given. */
  cases: readonly string[];
  /** Timed repetitions per case, unless the case has its own default or --runs is given. */
  runs: number;
  /** Untimed calls per case before timing (after the cold call), at least. */
  warmup: number;
  /** Warm-up time per transport and case, at least (see Visit.warmupMs). */
  warmupMs: number;
  /** Honour each case's own `defaultRuns` (e.g. 9 for the 1,000,000-row case). */
  caseDefaults: boolean;
  /** Idle ms before each timed call (see Visit.settleMs). */
  settleMs: number;
  /** Sets of new apps per case (see Visit.forks); 0: one set of apps for the whole variant. */
  forks: number;
  /** Visits per case, spread over the run and dealt to its forks in turn (see Visit.visits). */
  visits: number;
  /** Re-warm time per transport when a visit finds its fork's apps already warm (see Visit.cold). */
  rewarmMs: number;
  /**
   * Time for a case's timed calls, all its visits and transports together: each visit stops repeating
   * once its share is spent (after at least minRunsPerVisit), so runs become a ceiling. null: every
   * visit makes all its runs. --runs asks for exact runs and turns it off.
   */
  budgetMs: number | null;
  /** Timed repetitions a visit makes whatever its budget. */
  minRunsPerVisit: number;
}

export const PRESETS: Readonly<Record<string, Preset>> = Object.freeze({
  // What `bench:all` runs: the blog's seven cases, each in a set of apps of its own visited 4 times across
  // the run, its timed calls stopped by a time budget (20 s a case; ①-3: 3 runs); ≈ 4 min on 2 cores.
  // Per-call CVs of cells ≥ 20 ms are 15–35 % here, so what makes two runs agree is drawing the machine's
  // states across the run (visits), more than piling samples into one stretch (docs/method.md).
  default: {
    name: 'default', description: 'the blog\'s seven cases in ≈ 4 minutes on 2 cores: a set of apps per case, 4 visits, 20 s of timed calls a case',
    cases: ['①-1', '①-2', '①-3', '②-1', '②-2', '②-3', '20k×4'], runs: 100, warmup: 0, warmupMs: 2_000,
    caseDefaults: true, settleMs: 0, forks: 1, visits: 4, rewarmMs: 300, budgetMs: 20_000, minRunsPerVisit: 3,
  },
  // The schedule `default` had until it took 11–13 min: 2 forks and 10 visits a case, 100 runs (more for
  // the cheap cases ≥ 20 ms, fewer for the slow ones; cases.ts) made in full, 3 s warm-up.
  thorough: {
    name: 'thorough', description: 'the blog\'s seven cases, 2 sets of apps and 10 visits a case, every run made (11–13 min on 2 cores)',
    cases: ['①-1', '①-2', '①-3', '②-1', '②-2', '②-3', '20k×4'], runs: 100, warmup: 1, warmupMs: 3_000,
    caseDefaults: true, settleMs: 0, forks: 2, visits: 10, rewarmMs: 500, budgetMs: null, minRunsPerVisit: 1,
  },
  // For tests and CI: seconds, not minutes. Skips the two slowest cases unless asked for.
  quick: {
    name: 'quick', description: 'seconds, for tests and a first look: 5 cases, 3 runs, one set of apps',
    cases: ['①-1', '①-2', '②-1', '②-2', '20k×4'], runs: 3, warmup: 1, warmupMs: 0, caseDefaults: false, settleMs: 0, forks: 0, visits: 1, rewarmMs: 0,
    budgetMs: null, minRunsPerVisit: 1,
  },
});
