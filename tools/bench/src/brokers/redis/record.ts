import type { BrokerRecord } from '../contract';

export const REDIS: BrokerRecord = {
  kind: 'redis',
  name: 'redis-server',
  // redis-tools (redis-cli) is redis-server's dependency at the same version, and reads its counters.
  source: {
    kind: 'debian',
    packages: [
      { name: 'redis-server', version: '5:7.0.15-1~deb12u10' },
      { name: 'redis-tools', version: '5:7.0.15-1~deb12u10' },
    ],
  },
  version: '7.0.15',
  transports: ['nest-redis'],
};
