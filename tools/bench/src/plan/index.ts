// plan/: what a run will do, as data: cases, variants, runtimes, presets, bench:all's options, deadlines
// and the visit plan. Imports cli/, results/ (the model's types), network/ and security/ (profiles).
export { APP_NAMES, type AppName } from './app-names';
export { DEADLINE_RULE, MAX_TIMED_WARMUP_CALLS, RESTARTS_PER_SET, STAGE_BOUND_MS, START_BOUND_MS, STOP_BOUND_MS, callsOf, requestBoundMs, runBoundMs, visitBoundMs, withinBound } from './deadlines';
export { BENCH_ALL_COMMAND, optionsOf, parseOptions, type BenchOptions } from './options';
export { appSetKey, lastVisitOfAppSet, planCases } from './plan';
export { DEFAULT_RUNTIME, RUNTIMES, runtimePackage, selectRuntimes, type RuntimeRecord } from './runtimes';
export { VARIANTS, missingMains, selectVariants, type VariantRecord } from './variants';
