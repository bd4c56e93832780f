// network/: the network stage (issue #17, "Across a network"): client — router — server namespaces with
// the delay, rate and loss of a profile, calibrated before anything is measured on it; bench:network.
// Imports cli/ and model/; plan/, run/ and suites/ use it (as they will security/, its sibling).
export { loadProfiles, findProfile, validateProfiles, validateProfile, usesStage, usesDelayer, ProfileError, type NetworkProfile } from './profile';
export { PROFILE_RECORDS } from './profiles';
export { STAGE_LIMITS, CALIBRATION_TOLERANCE } from './limits';
export { checkPrerequisites, INSTALL_COMMAND } from './prerequisites';
export {
  startStage,
  delayerCpuBetween,
  type Stage,
  type StageOptions,
  type StageRecord,
  type Calibration,
  type CalibrateOptions,
  type DelayerCpu,
  type DelayTrim,
} from './stage';
export { cleanupLeftovers, type CleanupReport } from './cleanup';
export { parseTcpCounters, readHostTcpCounters, readTcpCounters, TCP_COUNTER_FILES } from './tcp-counters';
export { judge, bulkBytesFor, allowedRttErrorMs, type Achieved, type Expected, type Verdict } from './calibration';
export { NAMESPACE_PREFIX, topologyFor, type StageHost, type Topology, type TcpSettings } from './topology';
export { readLock, isHeld, lockPath, type LockInfo } from './lock';
// Behind a Service (issue #35): replicas on the server side, their CPU cgroups, balancing strategies.
export { ReplicaSet, REPLICA_LAN, type Replica, type ReplicaRecord } from './replicas';
export { parseCpuLimit, throttlingBetween, type CpuThrottling } from './cgroups';
export {
  BALANCING_STRATEGIES,
  SERVICE_NAME,
  SERVICE_TRANSPORTS,
  SERVICE_VIP,
  applyVirtualIp,
  findStrategy,
  virtualIpRulesInForce,
  HeadlessService,
  type BalancingStrategy,
  type ServiceTransport,
  type StrategyName,
} from './balancing';
export { run as runStageCommand } from './shell';
export { FrontProxy, type ProxyRoute } from './front-proxy';
export { findPath, pathNames, startPath, startNames, startMesh, joinPath, dialledHosts, pathCountersBetween, addPathCounters, pathPrerequisites, PATH_FEATURES, PathProfileError, type PathProfile, type ActivePath, type PathCounters, type PathRecord, type PathFeatureId, type NamesPart, type MeshPart } from './path';
export { lookupCost, serviceFqdn, dnsCountsBetween, SERVICE_NAMES, CLUSTER, type DnsCounts } from './cluster-dns';
export { ENVOY, resolveEnvoy, EnvoyUnavailableError } from './envoy-binary';
export { ENVOY_HTTP2_WINDOWS, type MeshPorts } from './sidecars';
export type { EnvoyCounters } from './envoy-process';
export { checkPath, SIDECAR_BOUND_MS, type PathCheck } from './path-check';
