// network/service/: behind a Service (issue #35, bench:service): replicas on the stage's server side
// (namespaces on a replica LAN, each with an optional CPU limit), and the balancing strategies that
// reach them: a virtual IP with kube-proxy's rules, a headless name from the path's DNS server, an
// Envoy front proxy. Imports network/stage/ and network/path/ (and cli/, model/, security/); suites/ uses it.
export { ReplicaSet, replicaAddress, type Replica, type ReplicaRecord } from './replicas';
export {
  BALANCING_STRATEGIES,
  SERVICE_NAME,
  SERVICE_TRANSPORTS,
  ALL_SERVICE_TRANSPORTS,
  BROKER_SHARING,
  SERVICE_GROUP,
  isBrokered,
  SERVICE_VIP,
  applyVirtualIp,
  findStrategy,
  serviceIdentity,
  virtualIpRulesInForce,
  HeadlessService,
  type BalancingStrategy,
  type BrokerSharing,
  type ServiceTransport,
  type StrategyName,
} from './balancing';
export { FrontProxy } from './front-proxy';
export {
  RECOVERY_TUNINGS,
  RECOVERY_NAMES,
  callerRecovery,
  parseRecoveries,
  recoveriesFor,
  recoveryOptionHelp,
  recoveryRecords,
  recoveryTunings,
  replicaRecoveryEnv,
  type HttpPoolTimeouts,
  type Recovery,
  type RecoveryTuning,
  type RecoveryTuningId,
} from './recovery';
