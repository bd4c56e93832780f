import type { ProcessSample } from '@bench/config';
import { ConnectTransport, type ConnectOptions } from '../common/connect-transport';

/** A connect-grpc client: connect-es's session manager and client on server-a's HTTP/2 listener (common/connect-transport.ts). */
export function connectGrpcClient(options: ConnectOptions, readMetrics: (resetPeak: boolean) => Promise<ProcessSample>): ConnectTransport {
  return new ConnectTransport('connect-grpc', options, readMetrics);
}
