// analysis/: what the reports read from a run's document: the verdict, the decision map, the phase breakdown,
// the ablation, the attribution, every transport ranked, the path's cost and counters per call, and whether a run is complete.
// Imports cli/ and model/ only: the document is the model's, the analyses are read from it and written by no run.
export { EFFECT_THRESHOLD, ablation, withoutAblations, type AblationRow } from './ablation';
export { FACTORS, attribution, type Attribution, type Factor } from './attribution';
export { PHASE_KEYS, PHASE_LABELS, phaseParts, variantRatios, type PhaseKey, type PhasePart } from './breakdown';
export { completenessOf, describeIncomplete } from './completeness';
export { cpuProfileRows, profiledGroups, widestPackageGap, type CpuProfileRow, type PackageGap, type PackageShare } from './cpu-profile';
export { disturbedVisitsOf, visitsOfRun, type VisitOfRun } from './disturbance';
export { GC_SPLIT_APART, GC_SPLIT_EXPLAINED, INITIAL_RTO_MS, MODE_GAP_IQRS, MODE_GAP_OF_CENTRE, MODE_MIN_CALLS, MODE_MIN_SHARE, PROCESS_SPLIT_APART, PROCESS_SPLIT_EXPLAINED, cellModes, detectModes, gcSplit, gcSplitText, hasModeNote, mechanismText, processSplit, processSplitText, type CellModes, type GcSplit, type ModeGroup, type Modes, type ProcessGroup, type ProcessSplit } from './modes';
export { TIE_WITHIN, decisionMap, type DecisionMap, type MapCell } from './decision-map';
export { REPEAT_WITHIN, phaseMoveText, ratiosAgree, repeatability, type PhaseMove, type RepeatabilityRow, type SeriesPoint, type SeriesRun } from './repeatability';
export { RANKING_MIN_TRANSPORTS, ranking, type RankedCell, type RankingGroup } from './ranking';
export { pathCostRows, pathCostTotal, type PathCostRow } from './path-cost';
export { failedCellText, pathCounterRows, tcpCounterRows, type PathCounterRow, type TcpCounterRow } from './path-counter-rows';
export { TRANSPORT_LABELS, verdict, type Verdict, type VerdictRow } from './verdict';
export { brokerHopsOf, brokerRow, brokerTables, type BrokerHops, type BrokerRow, type BrokerTable } from './broker-rows';
