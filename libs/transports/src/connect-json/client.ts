import type { ProcessSample } from '@bench/config';
import { ConnectTransport, type ConnectOptions } from '../common/connect-transport';

/** A connect-json client: connect-es's session manager and client on server-a's HTTP/2 listener (common/connect-transport.ts). */
export function connectJsonClient(options: ConnectOptions, readMetrics: (resetPeak: boolean) => Promise<ProcessSample>): ConnectTransport {
  return new ConnectTransport('connect-json', options, readMetrics);
}
