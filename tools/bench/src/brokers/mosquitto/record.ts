import type { BrokerRecord } from '../contract';

export const MOSQUITTO: BrokerRecord = {
  kind: 'mosquitto',
  name: 'Eclipse Mosquitto',
  // mosquitto-clients (mosquitto_sub) reads its $SYS counters.
  source: {
    kind: 'debian',
    packages: [
      { name: 'mosquitto', version: '2.0.11-1.2+deb12u2' },
      { name: 'mosquitto-clients', version: '2.0.11-1.2+deb12u2' },
    ],
  },
  version: '2.0.11',
  transports: ['nest-mqtt'],
};
