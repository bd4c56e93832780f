export { freePort } from './free-port';
export { startFakeJsonServer, startFakeGrpcServer, type FakeServer, type RowSource } from './fake-servers';
export { readBulk, type BulkRead } from './bulk-reader';
export { stopProcess } from './stop-process';
export { waitFor } from './wait-for';
export { keepAbandonedLog } from './abandoned-log';
