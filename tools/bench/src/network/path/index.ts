// network/path/: the path services really take (issue #34), built on a stage: service names answered by
// a real DNS server (cluster-dns.ts) and a sidecar mesh (Envoy beside the caller and the servers), as
// path profiles (`region+names+mesh`), and the check of a path against its stage's RTT.
// Imports cli/, model/, security/ (the sidecars' mTLS) and network/stage/; network/service/ builds on
// its DNS server and Envoy; plan/, run/ and suites/ use it.
export { findPath, PATH_FEATURES, PathProfileError, type PathProfile, type PathFeatureId } from './path';
export { pathPrerequisites, startPath, startNames, startMesh, joinPath, dialledHosts, type ActivePath, type NamesPart, type PathRecord } from './path';
export { checkPath, type PathCheck } from './path-check';
export { CLUSTER, DNS_ADDRESS, SERVICE_NAMES, serviceFqdn, lookupCost, podResolvConf, dnsmasqArgv, startClusterDns, type DnsServer } from './cluster-dns';
export { EnvoyProcess, adminGet } from './envoy-process';
export { ENVOY, resolveEnvoy } from './envoy-binary';
