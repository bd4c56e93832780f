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
  /** Honour each case's own `defaultRuns` (e.g. 5 for the 1,000,000-row case). */
  caseDefaults: boolean;
  /** Idle ms before each timed call (see PlannedCase.settleMs). */
  settleMs: number;
  /** Visits per case, each on new apps (see PlannedCase.forks); 0: one set of apps for the whole variant. */
  forks: number;
}

export const PROFILES: Readonly<Record<string, Profile>> = Object.freeze({
  // What `bench:all` runs: the blog's seven cases, 60 timed runs (fewer for the slow cases) in 3 forks; ~8 min on 2 cores.
  // 60, because the cells ≥ 20 ms have CVs of 15–25% here: the median of 60 samples then moves by
  // ~4% between runs (1.25·CV/√n), of 30 by ~5.5%, too close to the 10% two runs should agree within.
  default: { name: 'default', cases: ['①-1', '①-2', '①-3', '②-1', '②-2', '②-3', '20k×4'], runs: 60, warmup: 1, warmupMs: 3_000, caseDefaults: true, settleMs: 0, forks: 3 },
  // For tests and CI: seconds, not minutes. Skips the two slowest cases unless asked for.
  quick: { name: 'quick', cases: ['①-1', '①-2', '②-1', '②-2', '20k×4'], runs: 3, warmup: 1, warmupMs: 0, caseDefaults: false, settleMs: 0, forks: 0 },
});
