import type { NetworkProfile } from '../../../src/network/stage';

/** A namespaces profile (10 ms each way, 100 Mbit/s, 0.1 % loss) with what a test varies. */
export const profileRecord = (over: Partial<NetworkProfile> = {}): NetworkProfile => ({
  name: 'p',
  description: 'test',
  topology: 'namespaces',
  oneWayDelayMs: 10,
  rateMbit: 100,
  loss: 0.001,
  ...over,
});
