// measure/: timing the calls of one visit: the runner, its drivers (HTTP to the client app, a scripted
// fake), the merge of measured visits into cells, failures as data, progress. Imports cli/, results/, plan/.
export { CellPool } from './cell-pool';
export { HttpClientDriver } from './drivers/http-driver';
export { callFailure, describeFailure, failureSummary } from './failures';
export { BOUND_SHOWN_WITHIN, describeEstimate, estimateRun, type CostModel, type RunEstimate } from './estimate';
export { probeMachine } from './machine-probe';
export { readCpu } from './disturbance';
export { Progress, SET_START_MS, STAGE_BUILD_MS, duration, expectedCostMs } from './progress';
export { runVisits, type RunnerHooks } from './runner';
export { BrokerStretch, type BrokerMeter, type BrokerMeters } from './broker-meter';
