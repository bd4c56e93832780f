import { createConnectTransport } from '@connectrpc/connect-node';
import type { Settings } from '@bench/config';
import { connectOptions, type ConnectOptions } from '../common/connect-transport';

/** connect-json: connect-es speaking the Connect protocol with JSON bodies to server-a's HTTP/2 listener. */
export function connectJsonOptions(settings: Settings): ConnectOptions {
  return connectOptions(settings, (common) => createConnectTransport({ ...common, useBinaryFormat: false }));
}
