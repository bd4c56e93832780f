// run/: starting, pinning and stopping the apps of a variant (a set of apps per fork), also across the
// network stage, and driving measure/'s runner over them. Imports cli/, results/, plan/, measure/,
// network/, security/.
export { runtimeOfProcess } from './app-runtimes';
export { noQuietWaits, runVariant, type VariantContext } from './app-sets';
export { KEEP_WARM_NODE_FLAGS, startApps } from './apps';
export { variantOfClient } from './client-identity';
export { describeGivenToken, givenToken } from './control-token';
export { deployedNetwork } from './deployed-network';
export { acrossNetwork, checkNetworks } from './network-runs';
export { resolveNodeBinary, type NodeBinary } from './node-binaries';
export { hasTaskset, planPinning } from './pinning';
export { calibratedRttMs, checkedPath, describePathCheck, networkRecord, onStage, StageFailure, type PathEntry } from './on-stage';
