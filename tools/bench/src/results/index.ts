// results/: the results document (model), its statistics, and the analyses read from it: verdict,
// decision map, breakdown, ablation, attribution, path cost, completeness; provenance, run folders and
// the number formats and units every room prints with. Imports cli/ only.
export { EFFECT_THRESHOLD, ablation, withoutAblations, type AblationRow } from './ablation';
export { FACTORS, attribution, type Attribution, type Factor } from './attribution';
export { PHASE_KEYS, PHASE_LABELS, phaseParts, variantRatios, type PhaseKey, type PhasePart } from './breakdown';
export { cellLabel, completenessOf, describeIncomplete, plannedCells } from './completeness';
export { TIE_WITHIN, decisionMap, type DecisionMap, type MapCell } from './decision-map';
export { bytes, count, describeCalibration, describeConfinement, describeDeployedApps, describeMemoryReclaim, describeNetworks, describePaths, describeRuntimes, describeVisits, ms, ratio } from './format';
export { BLOG_TRANSPORTS, SCHEMA_VERSION, TRANSPORTS, type BenchProvenance, type BenchSettings, type BlogTransport, type CaseRecord, type Cell, type Failure, type MachineProbeReading, type Measurement, type PathCost, type Phases, type Visit, type ProcessCost, type RawResult, type RunDocument, type Transport } from './model';
export { pathCostRows, pathCostTotal, type PathCostRow } from './path-cost';
export { addPathCounters, dnsCountsBetween, emptyDnsCounts, NO_PATH_COUNTERS, pathCountersBetween, TCP_COUNTER_NAMES, type DnsCounts, type EnvoyCounters, type PathCounters, type TcpCounters } from './path-counters';
export { describeListenQueue, failedCellText, listenQueueRows, pathCounterRows, type ListenQueueRow, type PathCounterRow } from './path-counter-rows';
export { describePath, pathChanges, type PathRecord } from './path-record';
export { presetOf, type CalibrationRecord, type NetworkRecord, type Provenance, type ResultsDocument, type Settings } from './document';
export type { AppRuntime, AppRuntimeRecord, Pinning, QuietRule, QuietWaits, RuntimeProvenance, SetEvent } from './run-records';
export { collectProvenance } from './provenance';
export { withoutKeyMaterial } from './key-material';
export { anyOffLoopback, anyRuntimes, blogRatio, cellKey, grpcOverJson, networkOf, placeLabeller, placeLabels, runtimeOf, securityOf, securitiesOf, anySecurity, toCell } from './results';
export { listRuns, readRun, writeIndex, type StoredRun, type SuiteRunEntry } from './runs';
export { rttMs } from './round-trip';
export { runtimeNameOf } from './runtime-name';
export { NOISY_BELOW_MS, NOISY_CV, OUTLIER_Z, mean, median, percentile, summarize } from './stats';
export { createRunFolder, pointLatestAt, shownRunFolder, writeFileAtomic } from './store';
export { TRANSPORT_LABELS, verdict, type Verdict, type VerdictRow } from './verdict';
