// model/: the results document (its cells, keys and records), its statistics, the round trip, provenance,
// run folders and the number formats and units every room prints with: the leaf every later room reads or
// writes. The analyses read from it live in analysis/. Imports cli/ only.
export { bytes, count, describeListenQueue, describeCalibration, describeConfinement, describeDeployedApps, describeMemoryReclaim, describeNetworks, describePaths, describeRuntimes, describeVisits, ms, ratio } from './format';
export { BLOG_TRANSPORTS, SCHEMA_VERSION, TRANSPORTS, type BenchProvenance, type BenchSettings, type BlogTransport, type CaseRecord, type Cell, type Failure, type MachineProbeReading, type Measurement, type CallPhases, type CellVisit, type PathCost, type Phases, type Visit, type ProcessCost, type RawResult, type RunDocument, type Transport, type MedianCi, type PhaseBreakdown, type CellKey, type PlannedCell } from './model';
export { addBrokerCost, addBrokerCounters, countersBetween, type BrokerCost, type BrokerCounters } from './broker-cost';
export { addPathCounters, dnsCountsBetween, emptyDnsCounts, NO_PATH_COUNTERS, pathCountersBetween, TCP_COUNTER_NAMES, type DnsCounts, type EnvoyCounters, type PathCounters, type TcpCounters } from './path-counters';
export { cellLabel, plannedCells } from './planned-cells';
export { cellPackagesPerCall, describeProfiledRun, goPackageOf, IDLE, nodePackageOf, packagePerCallMs, summarizeProfile, type CellCpuProfile, type FlameNode, type FunctionTime, type PackageTime, type ProcessCpuProfile, type ProfiledRecord, type ProfileFrame, type ProfileTree } from './cpu-profile';
export { DISTURBED_SHARE, describeDisturbance, isDisturbed, type VisitDisturbance } from './disturbance';
export { describePath, pathChanges, type PathRecord } from './path-record';
export { presetOf, type BrokerRunRecord, type KafkaWarmUp, type CalibrationRecord, type NetworkRecord, type Provenance, type ResultsDocument, type Settings } from './document';
export type { AppRuntime, AppRuntimeRecord, Pinning, QuietRule, QuietWaits, RuntimeProvenance, SetEvent } from './run-records';
export { collectProvenance } from './provenance';
export { withoutKeyMaterial } from './key-material';
export { anyOffLoopback, anyRuntimes, blogRatio, cellKey, grpcOverJson, networkOf, placeLabeller, placeLabels, runtimeOf, securityOf, securitiesOf, anySecurity, toCell, findCell, runtimesOf, cellMedian, visitOfEachSample } from './results';
export { listRuns, readRun, writeIndex, type StoredRun, type SuiteRunEntry } from './runs';
export { rttMs } from './round-trip';
export { runtimeNameOf } from './runtime-name';
export { NOISY_BELOW_MS, NOISY_CV, OUTLIER_Z, mean, median, percentile, summarize, ratioOfMediansCi, type RatioCi } from './stats';
export { createRunFolder, pointLatestAt, shownRunFolder, writeFileAtomic } from './store';
