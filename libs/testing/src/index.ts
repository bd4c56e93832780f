export { freePort } from '@bench/config';
export { startFakeJsonServer, startFakeGrpcServer, type FakeServer, type RowSource } from './fake-servers';
export { readBulk, type BulkRead } from './bulk-reader';
export { stopProcess } from './stop-process';
export { gzipOfZeros, grpcFrame, rssGrowthDuring, http2Request, http2SessionOpenAfter, stallAfter, stallOutcome, DROPPED_AT_LIMIT, BOMB_INFLATED_BYTES, HALF_HTTP2_PREFACE, HALF_REQUEST_HEAD, PARTIAL_CLIENT_HELLO, type Http2Answer } from './hostile';
export { waitFor } from './wait-for';
export { keepAbandonedLog } from './abandoned-log';
export { resetFlood, openStreamsIgnoringLimit, type FloodOutcome, type StreamsOutcome } from './http2-floods';
export { testServerSecurity } from './test-certificates';
