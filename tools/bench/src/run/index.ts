// run/: the one run frame (experiment.ts) every tool's run goes through, bench:all's experiment (matrix.ts),
// and starting, pinning and stopping the apps of a variant (a set of apps per fork), also across the
// network stage, driving measure/'s runner over them. Imports cli/, model/, export/, compare/, plan/,
// measure/, network/, security/.
export { runtimeOfProcess } from './app-runtimes';
export { microserviceNamespace, securityEnv, startApps, type StartOptions } from './apps';
export { serveCpuProfiler } from './cpu-profile-agent';
export { agentLaunch, CpuProfiles, cpuProfileAgent, CPU_PROFILE_INTERVAL_US, type ProfiledCell, type SetProfiling } from './cpu-profiles';
export { serverIdentity } from './app-sets';
export { deployedNetwork } from './deployed-network';
export { checkNetworks } from './network-runs';
export { resolveNodeBinary, type NodeBinary } from './node-binaries';
export { hasTaskset, planPinning } from './pinning';
export { calibratedRttMs, checkedPath, describePathCheck, networkRecord, onStage, StageFailure, type PathEntry } from './on-stage';
export { runExperiment, type Experiment, type ExperimentFolder, type ExperimentOptions, type FolderPolicy, type FolderRun, type InterruptPolicy, type RuntimePolicy, type Slice } from './experiment';
export { withOneRuntime } from './experiment-runtimes';
export { matrixAxes, matrixCannotRun, matrixExperiment } from './matrix';
export { withClientVariant } from './matrix-prepare';
export { brokersCannotRun, brokersToStart, startRunBrokers, type RunBrokers } from './run-brokers';
