export {
  CallRunner,
  CaseFailure,
  UnservedTransport,
  BusyError,
  timeCall,
  withinDeadline,
  DeadlineExceeded,
  describeError,
  type CaseRequest,
  type CallSamples,
  type Phases,
  type TimedCall,
  type PayloadEndpoint,
  type ReplyVerifier,
} from './case-runner';
export { parseCaseRequest, overRunLimits, MAX_CALLS, MAX_DEADLINE_MS, MAX_RUN_ROWS, MAX_RUN_CALLS } from './case-request';
export { parseCallSamples } from './case-reply';
export { measurePath, PATH_BULK_HTTP2_WINDOW_BYTES, type PathReport, type PathOptions, type Spread, type BulkSpread, type GrpcBulkSpread, type Measured } from './path-probe';
export { parsePathRequest, PATH_DEFAULTS, type PathRequest } from './path-request';
export { watchTlsHandshakes, watchingTlsHandshakes, takeTlsHandshakes, type TlsHandshakes } from './tls-handshakes';
