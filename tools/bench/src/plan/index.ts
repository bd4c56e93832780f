// plan/: what a run will do, as data: cases, variants, runtimes, presets, the shared run options and bench:all's, deadlines
// and the visit plan. Imports cli/, results/ (the model's types), network/ and security/ (profiles).
export { APP_NAMES, type AppName } from './app-names';
export { DEADLINE_RULE, MAX_TIMED_WARMUP_CALLS, RESTARTS_PER_SET, STAGE_BOUND_MS, START_BOUND_MS, STOP_BOUND_MS, callsOf, requestBoundMs, runBoundMs, visitBoundMs, withinBound } from './deadlines';
export { BENCH_ALL_COMMAND, optionsOf, parseOptions, type BenchOptions } from './options';
export { CPU_PROFILE_OPTION, NETWORK_OPTION, NODE_OPTION, OUT_OPTION, RUN_OPTIONS, SECURITY_OPTION, profileOption, runAxesOf, runtimesOf, type PresetName, type RunAxes } from './run-options';
export { appSetKey, lastVisitOfAppSet, planVisits } from './plan';
export { DEFAULT_RUNTIME, RUNTIMES, runtimePackage, selectRuntimes, type RuntimeRecord } from './runtimes';
export { VARIANTS, missingMains, selectVariants, type VariantRecord } from './variants';
