import { createGrpcTransport } from '@connectrpc/connect-node';
import type { Settings } from '@bench/config';
import { connectOptions, type ConnectOptions } from '../common/connect-transport';

/** connect-grpc: connect-es speaking the gRPC protocol (grpc-js's wire, connect-es's library) to server-a's HTTP/2 listener. */
export function connectGrpcOptions(settings: Settings): ConnectOptions {
  return connectOptions(settings, (common) => createGrpcTransport(common));
}
