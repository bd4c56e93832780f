import { connectSampleRoutes, type ConnectBinding } from '../common/connect-server';

/** connect-proto's server binding: connect-es's handler for sample.SampleService on server-a's HTTP/2 listener, answering the Connect protocol with binary protobuf bodies (application/proto). */
export const CONNECT_PROTO_SERVER: ConnectBinding = { protocol: 'connect', routes: connectSampleRoutes };
