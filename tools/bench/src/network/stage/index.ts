// network/stage/: the network stage (issue #17, "Across a network"): client — router — server namespaces
// with the delay, rate and loss of a network profile, calibrated before anything is measured on it; the
// wire's faults, the CPU cgroups of what runs in its namespaces, and the teardown of all it made.
// Imports cli/ and model/; network/path/ and network/service/ build on it; plan/, run/ and suites/ use it.
export { findProfile, loadProfiles, usesStage, ProfileError, type NetworkProfile } from './profile';
export { checkPrerequisites } from './prerequisites';
export { startStage, delayerCpuBetween, type Stage, type Calibration, type DelayerCpu } from './stage';
export { allowedRttErrorMs } from './calibration';
export { round, summarize } from './figures';
export { cleanupLeftovers } from './cleanup';
// Its namespaces, for what runs in them (the path's DNS server and sidecars, the service's replicas, …).
export { NAMESPACE_PREFIX, topologyFor, isStageNamespace, type StageHost, type Topology, type TcpSettings } from './topology';
export { inNs, type Command } from './commands';
export { run as runStageCommand, tryRun as tryStageCommand, hasCommand } from './shell';
export { runToEnd } from './spawn-ready';
export { threadsCpuMs } from './receive-thread';
export { cpuHierarchy, createCpuCgroup, inCgroup, parseCpuLimit, readThrottling, removeCgroup, throttlingBetween, type CpuCgroup, type CpuThrottling } from './cgroups';
// The stage by hand (bench:network, ../main.ts): who holds it, its namespaces, faults on its wire.
export { isHeld, lockPath, readLock } from './lock';
export { isAlive, listNamespaces } from './namespaces';
export { faultCommand, findFault, WIRE_FAULTS } from './faults';
export { readHostTcpCounters } from './tcp-counters';
