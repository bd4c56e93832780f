import { connectSampleRoutes, type ConnectBinding } from '../common/connect-server';

/** connect-json's server binding: connect-es's handler for sample.SampleService on server-a's HTTP/2 listener, answering the Connect protocol with JSON bodies (application/json). */
export const CONNECT_JSON_SERVER: ConnectBinding = { protocol: 'connect', routes: connectSampleRoutes };
