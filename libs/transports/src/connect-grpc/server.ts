import { connectSampleRoutes, type ConnectBinding } from '../common/connect-server';

/** connect-grpc's server binding: connect-es's handler for sample.SampleService on server-a's HTTP/2 listener, answering the gRPC protocol (application/grpc), connect-es on gRPC's wire. */
export const CONNECT_GRPC_SERVER: ConnectBinding = { protocol: 'grpc', routes: connectSampleRoutes };
