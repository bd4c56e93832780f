/** A profile is a named set of defaults; options on the command line override it. */
export interface Profile {
  name: string;
  /** Case ids (or aliases) to run when --cases is not given. */
  cases: readonly string[];
  /** Timed repetitions per case, unless the case has its own default or --runs is given. */
  runs: number;
  /** Untimed calls per case before timing (after the cold call), at least. */
  warmup: number;
  /** Warm-up time per transport and case, at least (see PlannedCase.warmupMs). */
  warmupMs: number;
  /** Honour each case's own `defaultRuns` (e.g. 9 for the 1,000,000-row case). */
  caseDefaults: boolean;
  /** Idle ms before each timed call (see PlannedCase.settleMs). */
  settleMs: number;
  /** Sets of new apps per case (see PlannedCase.forks); 0: one set of apps for the whole variant. */
  forks: number;
  /** Visits per case, spread over the run and dealt to its forks in turn (see PlannedCase.visits). */
  visits: number;
  /** Re-warm time per transport when a visit finds its fork's apps already warm (see PlannedCase.cold). */
  rewarmMs: number;
}

export const PROFILES: Readonly<Record<string, Profile>> = Object.freeze({
  // What `bench:all` runs: the blog's seven cases, each in 2 forks visited 10 times across the run; ~11 min on 2 cores.
  // 100 runs (more for the cheap cases ≥ 20 ms, fewer for the slow ones; cases.ts), because the cells
  // ≥ 20 ms have per-call CVs of 15–35% here: the median of 100 samples then moves by ~3–4% between
  // runs (1.25·CV/√n), before the machine's own drift, and two runs should agree within 10%.
  default: {
    name: 'default', cases: ['①-1', '①-2', '①-3', '②-1', '②-2', '②-3', '20k×4'], runs: 100, warmup: 1, warmupMs: 3_000,
    caseDefaults: true, settleMs: 0, forks: 2, visits: 10, rewarmMs: 500,
  },
  // For tests and CI: seconds, not minutes. Skips the two slowest cases unless asked for.
  quick: { name: 'quick', cases: ['①-1', '①-2', '②-1', '②-2', '20k×4'], runs: 3, warmup: 1, warmupMs: 0, caseDefaults: false, settleMs: 0, forks: 0, visits: 1, rewarmMs: 0 },
});
