import type { BrokerRecord } from '../contract';

export const NATS: BrokerRecord = {
  kind: 'nats',
  name: 'nats-server',
  source: { kind: 'debian', packages: [{ name: 'nats-server', version: '2.9.10-1+b3' }] },
  version: '2.9.10',
  transports: ['nest-nats'],
};
